;; Counting the ones of bitmaps, 16 bytes a step (bits-kernel.ts copies the bitmaps in).
(module
  (memory (export "memory") 1)

  ;; The ones in `bytes` bytes at $a (a multiple of 16).
  (func (export "ones") (param $a i32) (param $bytes i32) (result i32)
    (local $end i32) (local $sum v128)
    (local.set $end (i32.add (local.get $a) (local.get $bytes)))
    (block $done
      (loop $step
        (br_if $done (i32.ge_u (local.get $a) (local.get $end)))
        (local.set $sum (i32x4.add (local.get $sum)
          (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u
            (i8x16.popcnt (v128.load (local.get $a)))))))
        (local.set $a (i32.add (local.get $a) (i32.const 16)))
        (br $step)))
    (call $lanes (local.get $sum)))

  ;; The ones of (a AND b) over `bytes` bytes at $a and $b (a multiple of 16).
  (func (export "onesInBoth") (param $a i32) (param $b i32) (param $bytes i32) (result i32)
    (local $end i32) (local $sum v128)
    (local.set $end (i32.add (local.get $a) (local.get $bytes)))
    (block $done
      (loop $step
        (br_if $done (i32.ge_u (local.get $a) (local.get $end)))
        (local.set $sum (i32x4.add (local.get $sum)
          (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u
            (i8x16.popcnt (v128.and (v128.load (local.get $a)) (v128.load (local.get $b))))))))
        (local.set $a (i32.add (local.get $a) (i32.const 16)))
        (local.set $b (i32.add (local.get $b) (i32.const 16)))
        (br $step)))
    (call $lanes (local.get $sum)))

  ;; The sum of four 32-bit lanes.
  (func $lanes (param $sum v128) (result i32)
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $sum)) (i32x4.extract_lane 1 (local.get $sum)))
      (i32.add (i32x4.extract_lane 2 (local.get $sum)) (i32x4.extract_lane 3 (local.get $sum))))))
