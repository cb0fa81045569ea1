;; Passes over the bitmaps of a query, 128 bits a step, on the bitmaps BitmapPool keeps in this
;; module's memory (bitmap-pool.ts). JavaScript reads and writes a word of 32 bits a step, with a
;; bounds check each, and has no popcount instruction. Built into bitmap-pool.wasm by
;; `npm run build:wasm` in the package; test/bitmap-pool.test.ts checks each pass against the same
;; pass in JavaScript.
;;
;; Every bitmap is at a byte offset that is a multiple of 16 and `words` 32-bit words long (any
;; number: the last words, fewer than 4, are done one by one). Counts per byte are summed in a
;; vector of bytes for at most 31 steps (8 bits a byte a step: at most 248), then widened into four
;; 32-bit sums, as in bit-count.wat.
;;
;; ones(a, words): the bits set in `a`.
;; claim(bits, rest, words): keeps in `bits` only the bits also set in `rest` and clears those in
;;   `rest`; returns how many they are.
;; or_and(into, a, b, words): sets in `into` the bits set in both `a` and `b`.
;; or_into, and_into, and_not_into(into, a, words): `into` becomes into | a, into & a, into & ~a.
(module
  (memory (export "memory") 1)
  (func $sum (param $sums v128) (result i32)
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $sums)) (i32x4.extract_lane 1 (local.get $sums)))
      (i32.add (i32x4.extract_lane 2 (local.get $sums)) (i32x4.extract_lane 3 (local.get $sums)))))
  (func $widen (param $sums v128) (param $bytes v128) (result v128)
    (i32x4.add (local.get $sums) (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $bytes)))))
  (func (export "ones") (param $a i32) (param $words i32) (result i32)
    (local $end i32) (local $stop i32) (local $bytes v128) (local $sums v128) (local $count i32)
    (local.set $end (i32.add (local.get $a) (i32.shl (i32.and (local.get $words) (i32.const -4)) (i32.const 2))))
    (block $done
      (loop $run
        (br_if $done (i32.ge_u (local.get $a) (local.get $end)))
        (local.set $stop (i32.add (local.get $a) (i32.const 496)))
        (if (i32.gt_u (local.get $stop) (local.get $end)) (then (local.set $stop (local.get $end))))
        (local.set $bytes (v128.const i64x2 0 0))
        (block $full
          (loop $step
            (br_if $full (i32.ge_u (local.get $a) (local.get $stop)))
            (local.set $bytes (i8x16.add (local.get $bytes) (i8x16.popcnt (v128.load (local.get $a)))))
            (local.set $a (i32.add (local.get $a) (i32.const 16)))
            (br $step)))
        (local.set $sums (call $widen (local.get $sums) (local.get $bytes)))
        (br $run)))
    (local.set $count (call $sum (local.get $sums)))
    (local.set $end (i32.add (local.get $end) (i32.shl (i32.and (local.get $words) (i32.const 3)) (i32.const 2))))
    (block $last
      (loop $word
        (br_if $last (i32.ge_u (local.get $a) (local.get $end)))
        (local.set $count (i32.add (local.get $count) (i32.popcnt (i32.load (local.get $a)))))
        (local.set $a (i32.add (local.get $a) (i32.const 4)))
        (br $word)))
    (local.get $count))
  (func (export "claim") (param $bits i32) (param $rest i32) (param $words i32) (result i32)
    (local $end i32) (local $stop i32) (local $kept v128) (local $left v128) (local $bytes v128) (local $sums v128)
    (local $word i32) (local $count i32)
    (local.set $end (i32.add (local.get $bits) (i32.shl (i32.and (local.get $words) (i32.const -4)) (i32.const 2))))
    (block $done
      (loop $run
        (br_if $done (i32.ge_u (local.get $bits) (local.get $end)))
        (local.set $stop (i32.add (local.get $bits) (i32.const 496)))
        (if (i32.gt_u (local.get $stop) (local.get $end)) (then (local.set $stop (local.get $end))))
        (local.set $bytes (v128.const i64x2 0 0))
        (block $full
          (loop $step
            (br_if $full (i32.ge_u (local.get $bits) (local.get $stop)))
            (local.set $left (v128.load (local.get $rest)))
            (local.set $kept (v128.and (v128.load (local.get $bits)) (local.get $left)))
            (v128.store (local.get $bits) (local.get $kept))
            (v128.store (local.get $rest) (v128.xor (local.get $left) (local.get $kept)))
            (local.set $bytes (i8x16.add (local.get $bytes) (i8x16.popcnt (local.get $kept))))
            (local.set $bits (i32.add (local.get $bits) (i32.const 16)))
            (local.set $rest (i32.add (local.get $rest) (i32.const 16)))
            (br $step)))
        (local.set $sums (call $widen (local.get $sums) (local.get $bytes)))
        (br $run)))
    (local.set $count (call $sum (local.get $sums)))
    (local.set $end (i32.add (local.get $end) (i32.shl (i32.and (local.get $words) (i32.const 3)) (i32.const 2))))
    (block $last
      (loop $tail
        (br_if $last (i32.ge_u (local.get $bits) (local.get $end)))
        (local.set $word (i32.and (i32.load (local.get $bits)) (i32.load (local.get $rest))))
        (i32.store (local.get $bits) (local.get $word))
        (i32.store (local.get $rest) (i32.xor (i32.load (local.get $rest)) (local.get $word)))
        (local.set $count (i32.add (local.get $count) (i32.popcnt (local.get $word))))
        (local.set $bits (i32.add (local.get $bits) (i32.const 4)))
        (local.set $rest (i32.add (local.get $rest) (i32.const 4)))
        (br $tail)))
    (local.get $count))
  (func (export "or_and") (param $into i32) (param $a i32) (param $b i32) (param $words i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $into) (i32.shl (i32.and (local.get $words) (i32.const -4)) (i32.const 2))))
    (block $done
      (loop $step
        (br_if $done (i32.ge_u (local.get $into) (local.get $end)))
        (v128.store (local.get $into)
          (v128.or (v128.load (local.get $into)) (v128.and (v128.load (local.get $a)) (v128.load (local.get $b)))))
        (local.set $into (i32.add (local.get $into) (i32.const 16)))
        (local.set $a (i32.add (local.get $a) (i32.const 16)))
        (local.set $b (i32.add (local.get $b) (i32.const 16)))
        (br $step)))
    (local.set $end (i32.add (local.get $end) (i32.shl (i32.and (local.get $words) (i32.const 3)) (i32.const 2))))
    (block $last
      (loop $word
        (br_if $last (i32.ge_u (local.get $into) (local.get $end)))
        (i32.store (local.get $into)
          (i32.or (i32.load (local.get $into)) (i32.and (i32.load (local.get $a)) (i32.load (local.get $b)))))
        (local.set $into (i32.add (local.get $into) (i32.const 4)))
        (local.set $a (i32.add (local.get $a) (i32.const 4)))
        (local.set $b (i32.add (local.get $b) (i32.const 4)))
        (br $word))))
  (func (export "or_into") (param $into i32) (param $a i32) (param $words i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $into) (i32.shl (i32.and (local.get $words) (i32.const -4)) (i32.const 2))))
    (block $done
      (loop $step
        (br_if $done (i32.ge_u (local.get $into) (local.get $end)))
        (v128.store (local.get $into) (v128.or (v128.load (local.get $into)) (v128.load (local.get $a))))
        (local.set $into (i32.add (local.get $into) (i32.const 16)))
        (local.set $a (i32.add (local.get $a) (i32.const 16)))
        (br $step)))
    (local.set $end (i32.add (local.get $end) (i32.shl (i32.and (local.get $words) (i32.const 3)) (i32.const 2))))
    (block $last
      (loop $word
        (br_if $last (i32.ge_u (local.get $into) (local.get $end)))
        (i32.store (local.get $into) (i32.or (i32.load (local.get $into)) (i32.load (local.get $a))))
        (local.set $into (i32.add (local.get $into) (i32.const 4)))
        (local.set $a (i32.add (local.get $a) (i32.const 4)))
        (br $word))))
  (func (export "and_into") (param $into i32) (param $a i32) (param $words i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $into) (i32.shl (i32.and (local.get $words) (i32.const -4)) (i32.const 2))))
    (block $done
      (loop $step
        (br_if $done (i32.ge_u (local.get $into) (local.get $end)))
        (v128.store (local.get $into) (v128.and (v128.load (local.get $into)) (v128.load (local.get $a))))
        (local.set $into (i32.add (local.get $into) (i32.const 16)))
        (local.set $a (i32.add (local.get $a) (i32.const 16)))
        (br $step)))
    (local.set $end (i32.add (local.get $end) (i32.shl (i32.and (local.get $words) (i32.const 3)) (i32.const 2))))
    (block $last
      (loop $word
        (br_if $last (i32.ge_u (local.get $into) (local.get $end)))
        (i32.store (local.get $into) (i32.and (i32.load (local.get $into)) (i32.load (local.get $a))))
        (local.set $into (i32.add (local.get $into) (i32.const 4)))
        (local.set $a (i32.add (local.get $a) (i32.const 4)))
        (br $word))))
  (func (export "and_not_into") (param $into i32) (param $a i32) (param $words i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $into) (i32.shl (i32.and (local.get $words) (i32.const -4)) (i32.const 2))))
    (block $done
      (loop $step
        (br_if $done (i32.ge_u (local.get $into) (local.get $end)))
        (v128.store (local.get $into) (v128.andnot (v128.load (local.get $into)) (v128.load (local.get $a))))
        (local.set $into (i32.add (local.get $into) (i32.const 16)))
        (local.set $a (i32.add (local.get $a) (i32.const 16)))
        (br $step)))
    (local.set $end (i32.add (local.get $end) (i32.shl (i32.and (local.get $words) (i32.const 3)) (i32.const 2))))
    (block $last
      (loop $word
        (br_if $last (i32.ge_u (local.get $into) (local.get $end)))
        (i32.store (local.get $into) (i32.and (i32.load (local.get $into)) (i32.xor (i32.load (local.get $a)) (i32.const -1))))
        (local.set $into (i32.add (local.get $into) (i32.const 4)))
        (local.set $a (i32.add (local.get $a) (i32.const 4)))
        (br $word)))))
