;; Dot products of the vector index (vector-index.ts), in WebAssembly. Every dot is summed exactly as
;; the engine's JavaScript always summed it: each record element (f32) promoted to f64, times the
;; query element as f64, added to an f64 sum in element order 0, 1, ..., dims - 1, no fused
;; multiply-add (WebAssembly has none to fuse into). The speed comes from running several of those
;; sums side by side (independent records, or two queries in the lanes of one f64x2), never from
;; reordering one of them, so every dot is bit-identical to the scalar loop.
;;
;; Memory (placed by vector-index.ts): records as f32 rows of dims at $rec; queries as f64; dots as f64.
;; Build: node scripts/build-wasm.mjs (writes vector-dots-wasm.ts; a test holds the two together).
(module
  ;; shared, so that worker threads read the records where the index wrote them (vector-threads.ts);
  ;; at most 2 GiB (vector-index.ts WASM_MAX_BYTES)
  (import "env" "memory" (memory 1 32768 shared))

  ;; One query (dims f64 at $q) against $count records from $rec: dot of record r at $out + 8r.
  ;; Four records at a time (four independent sums), then the remainder one by one.
  (func (export "dots1")
    (param $rec i32) (param $count i32) (param $dims i32) (param $q i32) (param $out i32)
    (local $r i32) (local $stride i32) (local $p0 i32) (local $p1 i32) (local $p2 i32) (local $p3 i32)
    (local $qp i32) (local $qend i32) (local $qi f64)
    (local $s0 f64) (local $s1 f64) (local $s2 f64) (local $s3 f64)
    (local.set $stride (i32.shl (local.get $dims) (i32.const 2)))
    (local.set $qend (i32.add (local.get $q) (i32.shl (local.get $dims) (i32.const 3))))
    (block $done4
      (loop $next4
        (br_if $done4 (i32.gt_u (i32.add (local.get $r) (i32.const 4)) (local.get $count)))
        (local.set $p0 (i32.add (local.get $rec) (i32.mul (local.get $r) (local.get $stride))))
        (local.set $p1 (i32.add (local.get $p0) (local.get $stride)))
        (local.set $p2 (i32.add (local.get $p1) (local.get $stride)))
        (local.set $p3 (i32.add (local.get $p2) (local.get $stride)))
        (local.set $s0 (f64.const 0))
        (local.set $s1 (f64.const 0))
        (local.set $s2 (f64.const 0))
        (local.set $s3 (f64.const 0))
        (local.set $qp (local.get $q))
        (block $end
          (loop $dim
            (br_if $end (i32.ge_u (local.get $qp) (local.get $qend)))
            (local.set $qi (f64.load (local.get $qp)))
            (local.set $s0 (f64.add (local.get $s0)
              (f64.mul (f64.promote_f32 (f32.load (local.get $p0))) (local.get $qi))))
            (local.set $s1 (f64.add (local.get $s1)
              (f64.mul (f64.promote_f32 (f32.load (local.get $p1))) (local.get $qi))))
            (local.set $s2 (f64.add (local.get $s2)
              (f64.mul (f64.promote_f32 (f32.load (local.get $p2))) (local.get $qi))))
            (local.set $s3 (f64.add (local.get $s3)
              (f64.mul (f64.promote_f32 (f32.load (local.get $p3))) (local.get $qi))))
            (local.set $p0 (i32.add (local.get $p0) (i32.const 4)))
            (local.set $p1 (i32.add (local.get $p1) (i32.const 4)))
            (local.set $p2 (i32.add (local.get $p2) (i32.const 4)))
            (local.set $p3 (i32.add (local.get $p3) (i32.const 4)))
            (local.set $qp (i32.add (local.get $qp) (i32.const 8)))
            (br $dim)))
        (f64.store (local.get $out) (local.get $s0))
        (f64.store offset=8 (local.get $out) (local.get $s1))
        (f64.store offset=16 (local.get $out) (local.get $s2))
        (f64.store offset=24 (local.get $out) (local.get $s3))
        (local.set $out (i32.add (local.get $out) (i32.const 32)))
        (local.set $r (i32.add (local.get $r) (i32.const 4)))
        (br $next4)))
    (block $done1
      (loop $next1
        (br_if $done1 (i32.ge_u (local.get $r) (local.get $count)))
        (local.set $p0 (i32.add (local.get $rec) (i32.mul (local.get $r) (local.get $stride))))
        (local.set $s0 (f64.const 0))
        (local.set $qp (local.get $q))
        (block $end1
          (loop $dim1
            (br_if $end1 (i32.ge_u (local.get $qp) (local.get $qend)))
            (local.set $s0 (f64.add (local.get $s0)
              (f64.mul (f64.promote_f32 (f32.load (local.get $p0))) (f64.load (local.get $qp)))))
            (local.set $p0 (i32.add (local.get $p0) (i32.const 4)))
            (local.set $qp (i32.add (local.get $qp) (i32.const 8)))
            (br $dim1)))
        (f64.store (local.get $out) (local.get $s0))
        (local.set $out (i32.add (local.get $out) (i32.const 8)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $next1))))

  ;; Queries in groups of eight against $count records from $rec. Query group g at
  ;; $qs + g * dims * 64: for each element i, four f64x2 (queries 8g+0,1 | 2,3 | 4,5 | 6,7), so a
  ;; lane holds one query's sum. Dot of record r with query j at $out + 8 * (r * nq + j), nq = 8 *
  ;; $groups. Two records x eight queries per pass (eight f64x2 sums), the queries read from cache
  ;; while the two record rows stay in L1; an odd last record alone.
  (func (export "dotsMany")
    (param $rec i32) (param $count i32) (param $dims i32) (param $qs i32) (param $groups i32)
    (param $out i32)
    (local $r i32) (local $g i32) (local $stride i32) (local $gstride i32) (local $rowOut i32)
    (local $p0 i32) (local $p1 i32) (local $pend i32) (local $qp i32) (local $o i32)
    (local $x0 v128) (local $x1 v128) (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $b0 v128) (local $b1 v128) (local $b2 v128) (local $b3 v128)
    (local.set $stride (i32.shl (local.get $dims) (i32.const 2)))
    (local.set $gstride (i32.shl (local.get $dims) (i32.const 6)))
    ;; bytes of one record's output row
    (local.set $rowOut (i32.shl (local.get $groups) (i32.const 6)))
    (block $done2
      (loop $next2
        (br_if $done2 (i32.gt_u (i32.add (local.get $r) (i32.const 2)) (local.get $count)))
        (local.set $g (i32.const 0))
        (block $gdone
          (loop $gnext
            (br_if $gdone (i32.ge_u (local.get $g) (local.get $groups)))
            (local.set $p0 (i32.add (local.get $rec) (i32.mul (local.get $r) (local.get $stride))))
            (local.set $p1 (i32.add (local.get $p0) (local.get $stride)))
            (local.set $pend (local.get $p1))
            (local.set $qp (i32.add (local.get $qs) (i32.mul (local.get $g) (local.get $gstride))))
            (local.set $a0 (v128.const i64x2 0 0))
            (local.set $a1 (v128.const i64x2 0 0))
            (local.set $a2 (v128.const i64x2 0 0))
            (local.set $a3 (v128.const i64x2 0 0))
            (local.set $b0 (v128.const i64x2 0 0))
            (local.set $b1 (v128.const i64x2 0 0))
            (local.set $b2 (v128.const i64x2 0 0))
            (local.set $b3 (v128.const i64x2 0 0))
            (block $end
              (loop $dim
                (br_if $end (i32.ge_u (local.get $p0) (local.get $pend)))
                (local.set $x0 (f64x2.promote_low_f32x4 (v128.load32_splat (local.get $p0))))
                (local.set $x1 (f64x2.promote_low_f32x4 (v128.load32_splat (local.get $p1))))
                (local.set $q0 (v128.load (local.get $qp)))
                (local.set $q1 (v128.load offset=16 (local.get $qp)))
                (local.set $q2 (v128.load offset=32 (local.get $qp)))
                (local.set $q3 (v128.load offset=48 (local.get $qp)))
                (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $x0) (local.get $q0))))
                (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $x0) (local.get $q1))))
                (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (local.get $x0) (local.get $q2))))
                (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (local.get $x0) (local.get $q3))))
                (local.set $b0 (f64x2.add (local.get $b0) (f64x2.mul (local.get $x1) (local.get $q0))))
                (local.set $b1 (f64x2.add (local.get $b1) (f64x2.mul (local.get $x1) (local.get $q1))))
                (local.set $b2 (f64x2.add (local.get $b2) (f64x2.mul (local.get $x1) (local.get $q2))))
                (local.set $b3 (f64x2.add (local.get $b3) (f64x2.mul (local.get $x1) (local.get $q3))))
                (local.set $p0 (i32.add (local.get $p0) (i32.const 4)))
                (local.set $p1 (i32.add (local.get $p1) (i32.const 4)))
                (local.set $qp (i32.add (local.get $qp) (i32.const 64)))
                (br $dim)))
            (local.set $o (i32.add (i32.add (local.get $out) (i32.mul (local.get $r) (local.get $rowOut)))
              (i32.shl (local.get $g) (i32.const 6))))
            (v128.store (local.get $o) (local.get $a0))
            (v128.store offset=16 (local.get $o) (local.get $a1))
            (v128.store offset=32 (local.get $o) (local.get $a2))
            (v128.store offset=48 (local.get $o) (local.get $a3))
            (local.set $o (i32.add (local.get $o) (local.get $rowOut)))
            (v128.store (local.get $o) (local.get $b0))
            (v128.store offset=16 (local.get $o) (local.get $b1))
            (v128.store offset=32 (local.get $o) (local.get $b2))
            (v128.store offset=48 (local.get $o) (local.get $b3))
            (local.set $g (i32.add (local.get $g) (i32.const 1)))
            (br $gnext)))
        (local.set $r (i32.add (local.get $r) (i32.const 2)))
        (br $next2)))
    ;; an odd last record: the same sums, one record
    (if (i32.lt_u (local.get $r) (local.get $count))
      (then
        (local.set $g (i32.const 0))
        (block $gdone1
          (loop $gnext1
            (br_if $gdone1 (i32.ge_u (local.get $g) (local.get $groups)))
            (local.set $p0 (i32.add (local.get $rec) (i32.mul (local.get $r) (local.get $stride))))
            (local.set $pend (i32.add (local.get $p0) (local.get $stride)))
            (local.set $qp (i32.add (local.get $qs) (i32.mul (local.get $g) (local.get $gstride))))
            (local.set $a0 (v128.const i64x2 0 0))
            (local.set $a1 (v128.const i64x2 0 0))
            (local.set $a2 (v128.const i64x2 0 0))
            (local.set $a3 (v128.const i64x2 0 0))
            (block $end1
              (loop $dim1
                (br_if $end1 (i32.ge_u (local.get $p0) (local.get $pend)))
                (local.set $x0 (f64x2.promote_low_f32x4 (v128.load32_splat (local.get $p0))))
                (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $x0) (v128.load (local.get $qp)))))
                (local.set $a1 (f64x2.add (local.get $a1)
                  (f64x2.mul (local.get $x0) (v128.load offset=16 (local.get $qp)))))
                (local.set $a2 (f64x2.add (local.get $a2)
                  (f64x2.mul (local.get $x0) (v128.load offset=32 (local.get $qp)))))
                (local.set $a3 (f64x2.add (local.get $a3)
                  (f64x2.mul (local.get $x0) (v128.load offset=48 (local.get $qp)))))
                (local.set $p0 (i32.add (local.get $p0) (i32.const 4)))
                (local.set $qp (i32.add (local.get $qp) (i32.const 64)))
                (br $dim1)))
            (local.set $o (i32.add (i32.add (local.get $out) (i32.mul (local.get $r) (local.get $rowOut)))
              (i32.shl (local.get $g) (i32.const 6))))
            (v128.store (local.get $o) (local.get $a0))
            (v128.store offset=16 (local.get $o) (local.get $a1))
            (v128.store offset=32 (local.get $o) (local.get $a2))
            (v128.store offset=48 (local.get $o) (local.get $a3))
            (local.set $g (i32.add (local.get $g) (i32.const 1)))
            (br $gnext1))))))
  ;; Approximate dots for the exact top-k's first pass (vector-index.ts topKMany): f32 products added
  ;; in f32, four lanes at a time, in any order the kernel likes. vector-index.ts bounds the error of
  ;; every such sum (at most (dims + 2) * 2^-24 relative to |record| * |query|), keeps each record
  ;; that could be within that bound of a query's k-th best, and scores only those exactly: the hits
  ;; and their scores are the exact kernel's, bit for bit; this only decides which records to score.
  ;;
  ;; Records as f32 rows of dims at $rec, $count a multiple of 4 (vector-index.ts pads with zero
  ;; rows). Query group g (eight queries) at $qt + g * dims * 32: for each element i, eight f32
  ;; (queries 8g..8g+3 | 8g+4..8g+7). Dot of record r with query j as f32 at $out + 4 * (r * nq + j),
  ;; nq = 8 * $groups. Four records x eight queries per pass: eight f32x4 sums, each record element
  ;; splat across the lanes, so the four rows stay in L1 while the query groups stream from L2.
  (func (export "dots32")
    (param $rec i32) (param $count i32) (param $dims i32) (param $qt i32) (param $groups i32)
    (param $out i32)
    (local $r i32) (local $g i32) (local $stride i32) (local $gstride i32) (local $rowOut i32)
    (local $p0 i32) (local $p1 i32) (local $p2 i32) (local $p3 i32) (local $pend i32) (local $qp i32)
    (local $o i32) (local $x v128) (local $q0 v128) (local $q1 v128)
    (local $a00 v128) (local $a01 v128) (local $a10 v128) (local $a11 v128)
    (local $a20 v128) (local $a21 v128) (local $a30 v128) (local $a31 v128)
    (local.set $stride (i32.shl (local.get $dims) (i32.const 2)))
    (local.set $gstride (i32.shl (local.get $dims) (i32.const 5)))
    ;; bytes of one record's output row: nq f32
    (local.set $rowOut (i32.shl (local.get $groups) (i32.const 5)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $r) (local.get $count)))
        (local.set $g (i32.const 0))
        (block $gdone
          (loop $gnext
            (br_if $gdone (i32.ge_u (local.get $g) (local.get $groups)))
            (local.set $p0 (i32.add (local.get $rec) (i32.mul (local.get $r) (local.get $stride))))
            (local.set $p1 (i32.add (local.get $p0) (local.get $stride)))
            (local.set $p2 (i32.add (local.get $p1) (local.get $stride)))
            (local.set $p3 (i32.add (local.get $p2) (local.get $stride)))
            (local.set $pend (local.get $p1))
            (local.set $qp (i32.add (local.get $qt) (i32.mul (local.get $g) (local.get $gstride))))
            (local.set $a00 (v128.const i64x2 0 0))
            (local.set $a01 (v128.const i64x2 0 0))
            (local.set $a10 (v128.const i64x2 0 0))
            (local.set $a11 (v128.const i64x2 0 0))
            (local.set $a20 (v128.const i64x2 0 0))
            (local.set $a21 (v128.const i64x2 0 0))
            (local.set $a30 (v128.const i64x2 0 0))
            (local.set $a31 (v128.const i64x2 0 0))
            (block $end
              (loop $dim
                (br_if $end (i32.ge_u (local.get $p0) (local.get $pend)))
                (local.set $q0 (v128.load (local.get $qp)))
                (local.set $q1 (v128.load offset=16 (local.get $qp)))
                (local.set $x (v128.load32_splat (local.get $p0)))
                (local.set $a00 (f32x4.add (local.get $a00) (f32x4.mul (local.get $x) (local.get $q0))))
                (local.set $a01 (f32x4.add (local.get $a01) (f32x4.mul (local.get $x) (local.get $q1))))
                (local.set $x (v128.load32_splat (local.get $p1)))
                (local.set $a10 (f32x4.add (local.get $a10) (f32x4.mul (local.get $x) (local.get $q0))))
                (local.set $a11 (f32x4.add (local.get $a11) (f32x4.mul (local.get $x) (local.get $q1))))
                (local.set $x (v128.load32_splat (local.get $p2)))
                (local.set $a20 (f32x4.add (local.get $a20) (f32x4.mul (local.get $x) (local.get $q0))))
                (local.set $a21 (f32x4.add (local.get $a21) (f32x4.mul (local.get $x) (local.get $q1))))
                (local.set $x (v128.load32_splat (local.get $p3)))
                (local.set $a30 (f32x4.add (local.get $a30) (f32x4.mul (local.get $x) (local.get $q0))))
                (local.set $a31 (f32x4.add (local.get $a31) (f32x4.mul (local.get $x) (local.get $q1))))
                (local.set $p0 (i32.add (local.get $p0) (i32.const 4)))
                (local.set $p1 (i32.add (local.get $p1) (i32.const 4)))
                (local.set $p2 (i32.add (local.get $p2) (i32.const 4)))
                (local.set $p3 (i32.add (local.get $p3) (i32.const 4)))
                (local.set $qp (i32.add (local.get $qp) (i32.const 32)))
                (br $dim)))
            (local.set $o (i32.add (i32.add (local.get $out) (i32.mul (local.get $r) (local.get $rowOut)))
              (i32.shl (local.get $g) (i32.const 5))))
            (v128.store (local.get $o) (local.get $a00))
            (v128.store offset=16 (local.get $o) (local.get $a01))
            (local.set $o (i32.add (local.get $o) (local.get $rowOut)))
            (v128.store (local.get $o) (local.get $a10))
            (v128.store offset=16 (local.get $o) (local.get $a11))
            (local.set $o (i32.add (local.get $o) (local.get $rowOut)))
            (v128.store (local.get $o) (local.get $a20))
            (v128.store offset=16 (local.get $o) (local.get $a21))
            (local.set $o (i32.add (local.get $o) (local.get $rowOut)))
            (v128.store (local.get $o) (local.get $a30))
            (v128.store offset=16 (local.get $o) (local.get $a31))
            (local.set $g (i32.add (local.get $g) (i32.const 1)))
            (br $gnext)))
        (local.set $r (i32.add (local.get $r) (i32.const 4)))
        (br $next))))
)
