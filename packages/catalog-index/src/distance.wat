;; Squared distances between rows of 16-bit numbers, eight numbers at a time (WebAssembly's
;; 128-bit SIMD), for the first pass of the similar-sounds index (vector-rows.ts), and between rows
;; of 32-bit floats, four at a time, for ranking the index's cells (float-rows.ts). Built into
;; distance.wasm by `npm run build:wasm` in the package; test/vector-rows.test.ts checks that the
;; two agree.
;;
;; scan(slots, distances, count, rows, stride, target, factors, limit): for each of the `count`
;; 32-bit slot numbers at byte offset `slots`, a squared distance between the row at that slot
;; (`rows` + slot × `stride` bytes) and the row at byte offset `target`, written as a 32-bit
;; integer at `distances`. Each number of the row is first scaled by its factor (the 16-bit
;; numbers at byte offset `factors`, as fractions of 32,768, rounded: i16x8.q15mulr_sat_s); the
;; target is given scaled. Each difference is held to ±`limit`, which the caller keeps small
;; enough that a row's sum cannot overflow. `stride` is a multiple of 16.
;;
;; squares(rows, count, stride, target, out): for each of `count` rows of 32-bit floats laid one
;; after another from byte offset `rows`, `stride` bytes each (a multiple of 16), the squared
;; distance to the row at byte offset `target`, written as a 32-bit float at `out`.
(module
  (memory (export "memory") 1)
  (func (export "scan") (param $slots i32) (param $distances i32) (param $count i32) (param $rows i32) (param $stride i32) (param $target i32) (param $factors i32) (param $limit i32)
    (local $i i32) (local $row i32) (local $end i32) (local $at i32) (local $factor i32)
    (local $sums v128) (local $difference v128) (local $high v128) (local $low v128)
    (if (i32.eqz (local.get $count)) (then (return)))
    (local.set $high (i16x8.splat (local.get $limit)))
    (local.set $low (i16x8.neg (local.get $high)))
    (loop $each
      (local.set $row (i32.add (local.get $rows)
        (i32.mul (i32.load (i32.add (local.get $slots) (i32.shl (local.get $i) (i32.const 2)))) (local.get $stride))))
      (local.set $end (i32.add (local.get $row) (local.get $stride)))
      (local.set $at (local.get $target))
      (local.set $factor (local.get $factors))
      (local.set $sums (v128.const i32x4 0 0 0 0))
      (loop $next
        (local.set $difference
          (i16x8.sub_sat_s
            (i16x8.q15mulr_sat_s (v128.load (local.get $row)) (v128.load (local.get $factor)))
            (v128.load (local.get $at))))
        (local.set $difference
          (i16x8.max_s (i16x8.min_s (local.get $difference) (local.get $high)) (local.get $low)))
        (local.set $sums (i32x4.add (local.get $sums) (i32x4.dot_i16x8_s (local.get $difference) (local.get $difference))))
        (local.set $row (i32.add (local.get $row) (i32.const 16)))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (local.set $factor (i32.add (local.get $factor) (i32.const 16)))
        (br_if $next (i32.lt_u (local.get $row) (local.get $end))))
      (i32.store (i32.add (local.get $distances) (i32.shl (local.get $i) (i32.const 2)))
        (i32.add
          (i32.add (i32x4.extract_lane 0 (local.get $sums)) (i32x4.extract_lane 1 (local.get $sums)))
          (i32.add (i32x4.extract_lane 2 (local.get $sums)) (i32x4.extract_lane 3 (local.get $sums)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $each (i32.lt_u (local.get $i) (local.get $count)))))
  (func (export "squares") (param $rows i32) (param $count i32) (param $stride i32) (param $target i32) (param $out i32)
    (local $i i32) (local $row i32) (local $end i32) (local $at i32) (local $sums v128) (local $difference v128)
    (if (i32.eqz (local.get $count)) (then (return)))
    (local.set $row (local.get $rows))
    (loop $each
      (local.set $end (i32.add (local.get $row) (local.get $stride)))
      (local.set $at (local.get $target))
      (local.set $sums (v128.const f32x4 0 0 0 0))
      (loop $next
        (local.set $difference (f32x4.sub (v128.load (local.get $row)) (v128.load (local.get $at))))
        (local.set $sums (f32x4.add (local.get $sums) (f32x4.mul (local.get $difference) (local.get $difference))))
        (local.set $row (i32.add (local.get $row) (i32.const 16)))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br_if $next (i32.lt_u (local.get $row) (local.get $end))))
      (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
        (f32.add
          (f32.add (f32x4.extract_lane 0 (local.get $sums)) (f32x4.extract_lane 1 (local.get $sums)))
          (f32.add (f32x4.extract_lane 2 (local.get $sums)) (f32x4.extract_lane 3 (local.get $sums)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $each (i32.lt_u (local.get $i) (local.get $count))))))
