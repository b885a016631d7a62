;; The run scanner of run-parse.ts (RunBuilder.feed) for the lines it accepts, in WebAssembly: a cold
;; start runs it at compiled speed from the first byte, where feed() spends most of a small run's
;; time waiting for the JIT. Same fields, same FNV-1a hashes, same score fast path; a line it cannot
;; take as feed() would (fewer than 6 fields) makes it return -1 and feed() reads the chunk instead,
;; with its exact error. Scores outside the fast path are listed for parseDecimal in JS.
;;
;; Memory: [0, 256) byte classes (BLANK of run-parse.ts), [256, 440) powers of ten 1e0..1e22 (f64),
;; both written by the JS side; the input and the output arrays where the caller puts them.
;; Build: node scripts/build-wasm.mjs (writes run-scan-wasm.ts; a test holds the two together).
(module
  (memory (export "memory") 1)
  ;; after scan(): lines seen (data, blank and comment), docno bytes copied, scores left to JS,
  ;; and the last entry's run id [rs, re)
  (global $lines (export "lines") (mut i32) (i32.const 0))
  (global $arenaUsed (export "arenaUsed") (mut i32) (i32.const 0))
  (global $slow (export "slow") (mut i32) (i32.const 0))
  (global $rs (export "rs") (mut i32) (i32.const 0))
  (global $re (export "re") (mut i32) (i32.const 0))
  ;; distinct qids in the chunk, as (start, end, hash) triples at pQid, in first-appearance order
  (global $qids (export "qids") (mut i32) (i32.const 0))

  ;; scan the lines of [start, end); per entry k: local qid, h, dOff, dLen, line (i32 arrays) and
  ;; score (f64); docno bytes copied to arena; slow scores as (k, ss, se) triples at pSlow; the
  ;; chunk's qids as (s, e, hash) at pQid (pQtab: qmask + 1 i32 of scratch). Offsets into the
  ;; input (ss, se, rs, re) are from start, qid offsets absolute; dOff from arena.
  ;; Returns the number of entries, -1 for a line feed() must report, -2 when cap is too small, -3
  ;; when the chunk has more qids than half the qid table.
  (func (export "scan")
    (param $start i32) (param $end i32) (param $cap i32)
    (param $pLocal i32) (param $pQid i32) (param $pQtab i32) (param $qmask i32) (param $pH i32)
    (param $pDoff i32) (param $pDlen i32) (param $pLine i32) (param $pScore i32)
    (param $pSlow i32) (param $arena i32)
    (result i32)
    (local $i i32) (local $c i32) (local $n i32) (local $line i32) (local $o i32) (local $slow i32)
    (local $qs i32) (local $qe i32) (local $qh i32) (local $fields i32)
    (local $ds i32) (local $de i32) (local $h i32) (local $ss i32) (local $rs i32) (local $re i32)
    (local $mant f64) (local $digits i32) (local $frac i32) (local $simple i32) (local $score f64)
    (local $k4 i32) (local $se i32) (local $nq i32) (local $slot i32) (local $j i32) (local $lq i32)
    (local $a i32)
    (memory.fill (local.get $pQtab) (i32.const 0) (i32.shl (i32.add (local.get $qmask) (i32.const 1)) (i32.const 2)))
    (local.set $i (local.get $start))
    (local.set $o (local.get $arena))
    (block $done
      (loop $nextLine
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $line (i32.add (local.get $line) (i32.const 1)))
        ;; blanks before the qid
        (block $b1o
          (loop $b1l
            (br_if $b1o (i32.ge_u (local.get $i) (local.get $end)))
            (br_if $b1o (i32.ne (i32.load8_u (i32.load8_u (local.get $i))) (i32.const 1)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $b1l)))
        ;; blank line
        (if (i32.or (i32.ge_u (local.get $i) (local.get $end))
                    (i32.eq (i32.load8_u (local.get $i)) (i32.const 10)))
          (then
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $nextLine)))
        ;; comment line (#, after optional blanks)
        (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 35))
          (then
            (block $n10o
          (loop $n10l
            (br_if $n10o (i32.ge_u (local.get $i) (local.get $end)))
            (br_if $n10o (i32.eq (i32.load8_u (local.get $i)) (i32.const 10)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $n10l)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $nextLine)))
        ;; field 1: qid, hashed
        (local.set $qs (local.get $i))
        (local.set $qh (i32.const 0x811c9dc5))
        (block $qEnd
          (loop $q
            (br_if $qEnd (i32.ge_u (local.get $i) (local.get $end)))
            (local.set $c (i32.load8_u (local.get $i)))
            (br_if $qEnd (i32.load8_u (local.get $c)))
            (local.set $qh (i32.mul (i32.xor (local.get $qh) (local.get $c)) (i32.const 0x01000193)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $q)))
        (local.set $qe (local.get $i))
        (local.set $fields (i32.const 1))
        ;; field 2: iteration, skipped
        (block $b2o
          (loop $b2l
            (br_if $b2o (i32.ge_u (local.get $i) (local.get $end)))
            (br_if $b2o (i32.ne (i32.load8_u (i32.load8_u (local.get $i))) (i32.const 1)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $b2l)))
        (if (i32.and (i32.lt_u (local.get $i) (local.get $end)) (i32.ne (i32.load8_u (local.get $i)) (i32.const 10)))
          (then
            (local.set $fields (i32.const 2))
            (block $f7o
              (loop $f7l
                (br_if $f7o (i32.ge_u (local.get $i) (local.get $end)))
                (br_if $f7o (i32.load8_u (i32.load8_u (local.get $i))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $f7l)))))
        ;; field 3: docno, hashed and copied
        (block $b3o
          (loop $b3l
            (br_if $b3o (i32.ge_u (local.get $i) (local.get $end)))
            (br_if $b3o (i32.ne (i32.load8_u (i32.load8_u (local.get $i))) (i32.const 1)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $b3l)))
        (local.set $ds (local.get $i))
        (local.set $h (i32.const 0x811c9dc5))
        (if (i32.and (i32.eq (local.get $fields) (i32.const 2))
                     (i32.and (i32.lt_u (local.get $i) (local.get $end)) (i32.ne (i32.load8_u (local.get $i)) (i32.const 10))))
          (then
            (local.set $fields (i32.const 3))
            (block $dEnd
              (loop $d
                (br_if $dEnd (i32.ge_u (local.get $i) (local.get $end)))
                (local.set $c (i32.load8_u (local.get $i)))
                (br_if $dEnd (i32.load8_u (local.get $c)))
                (local.set $h (i32.mul (i32.xor (local.get $h) (local.get $c)) (i32.const 0x01000193)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $d)))))
        (local.set $de (local.get $i))
        (memory.copy (local.get $o) (local.get $ds) (i32.sub (local.get $de) (local.get $ds)))
        ;; field 4: rank, skipped
        (block $b4o
          (loop $b4l
            (br_if $b4o (i32.ge_u (local.get $i) (local.get $end)))
            (br_if $b4o (i32.ne (i32.load8_u (i32.load8_u (local.get $i))) (i32.const 1)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $b4l)))
        (if (i32.and (i32.eq (local.get $fields) (i32.const 3))
                     (i32.and (i32.lt_u (local.get $i) (local.get $end)) (i32.ne (i32.load8_u (local.get $i)) (i32.const 10))))
          (then
            (local.set $fields (i32.const 4))
            (block $f8o
              (loop $f8l
                (br_if $f8o (i32.ge_u (local.get $i) (local.get $end)))
                (br_if $f8o (i32.load8_u (i32.load8_u (local.get $i))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $f8l)))))
        ;; field 5: score; digits with at most one dot, up to 15 digits, here; the rest in JS
        (block $b5o
          (loop $b5l
            (br_if $b5o (i32.ge_u (local.get $i) (local.get $end)))
            (br_if $b5o (i32.ne (i32.load8_u (i32.load8_u (local.get $i))) (i32.const 1)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $b5l)))
        (local.set $ss (local.get $i))
        (local.set $simple (i32.const 0))
        (if (i32.and (i32.eq (local.get $fields) (i32.const 4))
                     (i32.and (i32.lt_u (local.get $i) (local.get $end)) (i32.ne (i32.load8_u (local.get $i)) (i32.const 10))))
          (then
            (local.set $fields (i32.const 5))
            (local.set $mant (f64.const 0))
            (local.set $digits (i32.const 0))
            (local.set $frac (i32.const -1))
            (local.set $simple (i32.const 1))
            (block $sEnd
              (loop $s
                (br_if $sEnd (i32.ge_u (local.get $i) (local.get $end)))
                (local.set $c (i32.load8_u (local.get $i)))
                (br_if $sEnd (i32.load8_u (local.get $c)))
                (if (i32.le_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 9))
                  (then
                    (local.set $mant
                      (f64.add (f64.mul (local.get $mant) (f64.const 10))
                               (f64.convert_i32_u (i32.sub (local.get $c) (i32.const 48)))))
                    (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
                    (if (i32.ge_s (local.get $frac) (i32.const 0))
                      (then (local.set $frac (i32.add (local.get $frac) (i32.const 1))))))
                  (else
                    (if (i32.and (i32.eq (local.get $c) (i32.const 46))
                                 (i32.lt_s (local.get $frac) (i32.const 0)))
                      (then (local.set $frac (i32.const 0)))
                      (else (local.set $simple (i32.const 0))))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $s)))
            (if (i32.eqz (local.get $digits)) (then (local.set $simple (i32.const 0))))
            (if (i32.gt_s (local.get $digits) (i32.const 15)) (then (local.set $simple (i32.const 0))))
            (local.set $score
              (if (result f64) (i32.gt_s (local.get $frac) (i32.const 0))
                (then (f64.div (local.get $mant)
                               (f64.load (i32.add (i32.const 256) (i32.shl (local.get $frac) (i32.const 3))))))
                (else (local.get $mant))))))
        (local.set $se (local.get $i))
        ;; field 6: run id
        (block $b6o
          (loop $b6l
            (br_if $b6o (i32.ge_u (local.get $i) (local.get $end)))
            (br_if $b6o (i32.ne (i32.load8_u (i32.load8_u (local.get $i))) (i32.const 1)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $b6l)))
        (local.set $rs (local.get $i))
        (if (i32.and (i32.eq (local.get $fields) (i32.const 5))
                     (i32.and (i32.lt_u (local.get $i) (local.get $end)) (i32.ne (i32.load8_u (local.get $i)) (i32.const 10))))
          (then
            (local.set $fields (i32.const 6))
            (block $f9o
              (loop $f9l
                (br_if $f9o (i32.ge_u (local.get $i) (local.get $end)))
                (br_if $f9o (i32.load8_u (i32.load8_u (local.get $i))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $f9l)))))
        (local.set $re (local.get $i))
        ;; anything after the run id is ignored
        (block $n11o
          (loop $n11l
            (br_if $n11o (i32.ge_u (local.get $i) (local.get $end)))
            (br_if $n11o (i32.eq (i32.load8_u (local.get $i)) (i32.const 10)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $n11l)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (if (i32.lt_u (local.get $fields) (i32.const 6)) (then (return (i32.const -1))))
        (if (i32.ge_u (local.get $n) (local.get $cap)) (then (return (i32.const -2))))
        (local.set $k4 (i32.shl (local.get $n) (i32.const 2)))
        ;; the qid's index among this chunk's qids (first appearance): an open-addressing table
        (local.set $slot (i32.and (local.get $qh) (local.get $qmask)))
        (block $found
          (loop $probe
            (local.set $j (i32.load (i32.add (local.get $pQtab) (i32.shl (local.get $slot) (i32.const 2)))))
            (if (i32.eqz (local.get $j))
              (then
                (local.set $lq (local.get $nq))
                (local.set $a (i32.add (local.get $pQid) (i32.mul (local.get $lq) (i32.const 12))))
                (i32.store (local.get $a) (local.get $qs))
                (i32.store (i32.add (local.get $a) (i32.const 4)) (local.get $qe))
                (i32.store (i32.add (local.get $a) (i32.const 8)) (local.get $qh))
                (i32.store (i32.add (local.get $pQtab) (i32.shl (local.get $slot) (i32.const 2)))
                           (i32.add (local.get $lq) (i32.const 1)))
                (local.set $nq (i32.add (local.get $nq) (i32.const 1)))
                ;; the table at most half full, or the caller asks again with a larger one
                (if (i32.gt_u (i32.shl (local.get $nq) (i32.const 1)) (local.get $qmask))
                  (then (return (i32.const -3))))
                (br $found)))
            (local.set $lq (i32.sub (local.get $j) (i32.const 1)))
            (local.set $a (i32.add (local.get $pQid) (i32.mul (local.get $lq) (i32.const 12))))
            (if (i32.eq (i32.load (i32.add (local.get $a) (i32.const 8))) (local.get $qh))
              (then
                (br_if $found (call $sameBytes (local.get $qs) (local.get $qe)
                                               (i32.load (local.get $a)) (i32.load (i32.add (local.get $a) (i32.const 4)))))))
            (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $qmask)))
            (br $probe)))
        (i32.store (i32.add (local.get $pLocal) (local.get $k4)) (local.get $lq))
        (i32.store (i32.add (local.get $pH) (local.get $k4)) (local.get $h))
        (i32.store (i32.add (local.get $pDoff) (local.get $k4)) (i32.sub (local.get $o) (local.get $arena)))
        (i32.store (i32.add (local.get $pDlen) (local.get $k4)) (i32.sub (local.get $de) (local.get $ds)))
        (i32.store (i32.add (local.get $pLine) (local.get $k4)) (local.get $line))
        (if (local.get $simple)
          (then
            (f64.store (i32.add (local.get $pScore) (i32.shl (local.get $n) (i32.const 3))) (local.get $score)))
          (else
            (i32.store (local.get $pSlow) (local.get $n))
            (i32.store (i32.add (local.get $pSlow) (i32.const 4)) (i32.sub (local.get $ss) (local.get $start)))
            (i32.store (i32.add (local.get $pSlow) (i32.const 8)) (i32.sub (local.get $se) (local.get $start)))
            (local.set $pSlow (i32.add (local.get $pSlow) (i32.const 12)))
            (local.set $slow (i32.add (local.get $slow) (i32.const 1)))))
        (local.set $o (i32.add (local.get $o) (i32.sub (local.get $de) (local.get $ds))))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (global.set $rs (i32.sub (local.get $rs) (local.get $start)))
        (global.set $re (i32.sub (local.get $re) (local.get $start)))
        (br $nextLine)))
    (global.set $lines (local.get $line))
    (global.set $qids (local.get $nq))
    (global.set $arenaUsed (i32.sub (local.get $o) (local.get $arena)))
    (global.set $slow (local.get $slow))
    (local.get $n))

  ;; finish(): group entries by query (stable counting sort on q, first-appearance query order).
  ;; counts: nq + 1 i32 (written: counts[q] = first entry of query q, counts[nq] = n); pos: nq i32
  ;; scratch. Returns 1 when the entries were already grouped (outputs not written), else 0.
  (func (export "group")
    (param $n i32) (param $nq i32) (param $pQ i32) (param $pCounts i32) (param $pPos i32)
    (param $pH i32) (param $pO i32) (param $pL i32) (param $pN i32) (param $pS i32)
    (param $oH i32) (param $oO i32) (param $oL i32) (param $oN i32) (param $oS i32)
    (result i32)
    (local $i i32) (local $q i32) (local $prev i32) (local $grouped i32) (local $d i32)
    (local $a i32) (local $i4 i32) (local $d4 i32)
    (memory.fill (local.get $pCounts) (i32.const 0) (i32.shl (i32.add (local.get $nq) (i32.const 1)) (i32.const 2)))
    (local.set $prev (i32.const -1))
    (local.set $grouped (i32.const 1))
    (block $out
      (loop $l
        (br_if $out (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $q (i32.load (i32.add (local.get $pQ) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $a (i32.add (local.get $pCounts) (i32.shl (i32.add (local.get $q) (i32.const 1)) (i32.const 2))))
        (i32.store (local.get $a) (i32.add (i32.load (local.get $a)) (i32.const 1)))
        (if (i32.lt_s (local.get $q) (local.get $prev)) (then (local.set $grouped (i32.const 0))))
        (local.set $prev (local.get $q))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $l)))
    ;; prefix sums
    (local.set $q (i32.const 0))
    (block $out
      (loop $l
        (br_if $out (i32.ge_u (local.get $q) (local.get $nq)))
        (local.set $a (i32.add (local.get $pCounts) (i32.shl (i32.add (local.get $q) (i32.const 1)) (i32.const 2))))
        (i32.store (local.get $a)
          (i32.add (i32.load (local.get $a)) (i32.load (i32.sub (local.get $a) (i32.const 4)))))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $l)))
    (if (local.get $grouped) (then (return (i32.const 1))))
    (memory.copy (local.get $pPos) (local.get $pCounts) (i32.shl (local.get $nq) (i32.const 2)))
    (local.set $i (i32.const 0))
    (block $out
      (loop $l
        (br_if $out (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $i4 (i32.shl (local.get $i) (i32.const 2)))
        (local.set $a (i32.add (local.get $pPos)
                               (i32.shl (i32.load (i32.add (local.get $pQ) (local.get $i4))) (i32.const 2))))
        (local.set $d (i32.load (local.get $a)))
        (i32.store (local.get $a) (i32.add (local.get $d) (i32.const 1)))
        (local.set $d4 (i32.shl (local.get $d) (i32.const 2)))
        (i32.store (i32.add (local.get $oH) (local.get $d4)) (i32.load (i32.add (local.get $pH) (local.get $i4))))
        (i32.store (i32.add (local.get $oO) (local.get $d4)) (i32.load (i32.add (local.get $pO) (local.get $i4))))
        (i32.store (i32.add (local.get $oL) (local.get $d4)) (i32.load (i32.add (local.get $pL) (local.get $i4))))
        (i32.store (i32.add (local.get $oN) (local.get $d4)) (i32.load (i32.add (local.get $pN) (local.get $i4))))
        (f64.store (i32.add (local.get $oS) (i32.shl (local.get $d) (i32.const 3)))
                   (f64.load (i32.add (local.get $pS) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $l)))
    (i32.const 0))

  ;; finish(): the first document retrieved twice for one query, as checkDuplicates() finds it
  ;; (entries in order, an open-addressing table of the earlier ones); -1 when there is none, else
  ;; the later entry, with the earlier one in $dupFirst. slots: scratch of at least 2 * (largest
  ;; query) rounded up to a power of two (>= 16) i32.
  (global $dupFirst (export "dupFirst") (mut i32) (i32.const 0))
  (func (export "duplicates")
    (param $nq i32) (param $pCounts i32) (param $pH i32) (param $pO i32) (param $pL i32)
    (param $arena i32) (param $pSlots i32)
    (result i32)
    (local $q i32) (local $start i32) (local $end i32) (local $size i32) (local $mask i32)
    (local $i i32) (local $s i32) (local $j i32) (local $h i32) (local $a i32)
    (block $queries
      (loop $lq
        (br_if $queries (i32.ge_u (local.get $q) (local.get $nq)))
        (local.set $start (i32.load (i32.add (local.get $pCounts) (i32.shl (local.get $q) (i32.const 2)))))
        (local.set $end (i32.load (i32.add (local.get $pCounts) (i32.shl (i32.add (local.get $q) (i32.const 1)) (i32.const 2)))))
        (local.set $size (i32.const 16))
        (block $sized
          (loop $ls
            (br_if $sized (i32.ge_u (local.get $size) (i32.shl (i32.sub (local.get $end) (local.get $start)) (i32.const 1))))
            (local.set $size (i32.shl (local.get $size) (i32.const 1)))
            (br $ls)))
        (local.set $mask (i32.sub (local.get $size) (i32.const 1)))
        (memory.fill (local.get $pSlots) (i32.const 0) (i32.shl (local.get $size) (i32.const 2)))
        (local.set $i (local.get $start))
        (block $entries
          (loop $le
            (br_if $entries (i32.ge_u (local.get $i) (local.get $end)))
            (local.set $h (i32.load (i32.add (local.get $pH) (i32.shl (local.get $i) (i32.const 2)))))
            (local.set $s (i32.and (local.get $h) (local.get $mask)))
            (block $placed
              (loop $probe
                (local.set $a (i32.add (local.get $pSlots) (i32.shl (local.get $s) (i32.const 2))))
                (local.set $j (i32.sub (i32.load (local.get $a)) (i32.const 1)))
                (if (i32.lt_s (local.get $j) (i32.const 0))
                  (then
                    (i32.store (local.get $a) (i32.add (local.get $i) (i32.const 1)))
                    (br $placed)))
                (if (i32.eq (i32.load (i32.add (local.get $pH) (i32.shl (local.get $j) (i32.const 2)))) (local.get $h))
                  (then
                    (if (call $sameDocno (local.get $i) (local.get $j) (local.get $pO) (local.get $pL) (local.get $arena))
                      (then
                        (global.set $dupFirst (local.get $j))
                        (return (local.get $i))))))
                (local.set $s (i32.and (i32.add (local.get $s) (i32.const 1)) (local.get $mask)))
                (br $probe)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $le)))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $lq)))
    (i32.const -1))

  ;; The qrels scanner of qrels-read.ts (parseQrels) for the lines it accepts: four fields, a grade
  ;; of an optional minus and 1 to 9 digits. Per entry k, i32 arrays: document id (idBase + k), docno
  ;; offset (arenaBase + its offset in arena) and length, docno hash, grade and line (lineBase + its
  ;; line in the piece, from 1); docno bytes copied to arena. Final values: the caller only copies them.
  ;; Each change of qid from the previous line (and the chunk's first line) is a run: (entry, qs, qe,
  ;; hash) at pRuns, qs and qe from start; their count in $qids. Returns the number of entries, or -1
  ;; for a line parseQrels must read (to report it, or a grade it parses the long way).
  (func (export "qrels")
    (param $start i32) (param $end i32) (param $pId i32) (param $pDoff i32) (param $pDlen i32)
    (param $pH i32) (param $pRel i32) (param $pLine i32) (param $pRuns i32) (param $arena i32)
    (param $idBase i32) (param $arenaBase i32) (param $lineBase i32)
    (result i32)
    (local $i i32) (local $c i32) (local $n i32) (local $line i32) (local $o i32) (local $runs i32)
    (local $qs i32) (local $qe i32) (local $qh i32) (local $ps i32) (local $pe i32) (local $ph i32)
    (local $ds i32) (local $de i32) (local $h i32) (local $rel i32) (local $neg i32) (local $digits i32)
    (local $k4 i32) (local $a i32)
    (local.set $i (local.get $start))
    (local.set $o (local.get $arena))
    (local.set $pe (i32.const -1))
    (block $done
      (loop $nextLine
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $line (i32.add (local.get $line) (i32.const 1)))
        (local.set $i (call $blanks (local.get $i) (local.get $end)))
        ;; blank line
        (if (i32.or (i32.ge_u (local.get $i) (local.get $end))
                    (i32.eq (i32.load8_u (local.get $i)) (i32.const 10)))
          (then
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $nextLine)))
        ;; a comment line: parseQrels reads it (trec_eval 10 skips one only at a line's first byte and
        ;; not right after another, which it reads as a judgment: rgate refuses those)
        (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 35))
          (then (return (i32.const -1))))
        ;; field 1: qid, hashed
        (local.set $qs (local.get $i))
        (local.set $qh (i32.const 0x811c9dc5))
        (block $qEnd
          (loop $q
            (br_if $qEnd (i32.ge_u (local.get $i) (local.get $end)))
            (local.set $c (i32.load8_u (local.get $i)))
            (br_if $qEnd (i32.load8_u (local.get $c)))
            (local.set $qh (i32.mul (i32.xor (local.get $qh) (local.get $c)) (i32.const 0x01000193)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $q)))
        (local.set $qe (local.get $i))
        ;; field 2: iteration, skipped (a line ending before a field is one to report)
        (local.set $i (call $blanks (local.get $i) (local.get $end)))
        (if (call $lineEnds (local.get $i) (local.get $end)) (then (return (i32.const -1))))
        (local.set $i (call $field (local.get $i) (local.get $end)))
        ;; field 3: docno, hashed and copied
        (local.set $i (call $blanks (local.get $i) (local.get $end)))
        (if (call $lineEnds (local.get $i) (local.get $end)) (then (return (i32.const -1))))
        (local.set $ds (local.get $i))
        (local.set $h (i32.const 0x811c9dc5))
        (block $dEnd
          (loop $d
            (br_if $dEnd (i32.ge_u (local.get $i) (local.get $end)))
            (local.set $c (i32.load8_u (local.get $i)))
            (br_if $dEnd (i32.load8_u (local.get $c)))
            (local.set $h (i32.mul (i32.xor (local.get $h) (local.get $c)) (i32.const 0x01000193)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $d)))
        (local.set $de (local.get $i))
        ;; field 4: grade, an optional minus and 1 to 9 digits here (the rest parseQrels reads)
        (local.set $i (call $blanks (local.get $i) (local.get $end)))
        (if (call $lineEnds (local.get $i) (local.get $end)) (then (return (i32.const -1))))
        (local.set $neg (i32.eq (i32.load8_u (local.get $i)) (i32.const 45)))
        (local.set $i (i32.add (local.get $i) (local.get $neg)))
        (local.set $rel (i32.const 0))
        (local.set $digits (i32.const 0))
        (block $gEnd
          (loop $g
            (br_if $gEnd (i32.ge_u (local.get $i) (local.get $end)))
            (local.set $c (i32.load8_u (local.get $i)))
            (br_if $gEnd (i32.load8_u (local.get $c)))
            (if (i32.gt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 9)) (then (return (i32.const -1))))
            (local.set $rel (i32.add (i32.mul (local.get $rel) (i32.const 10)) (i32.sub (local.get $c) (i32.const 48))))
            (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $g)))
        (if (i32.or (i32.eqz (local.get $digits)) (i32.gt_u (local.get $digits) (i32.const 9)))
          (then (return (i32.const -1))))
        (if (local.get $neg) (then (local.set $rel (i32.sub (i32.const 0) (local.get $rel)))))
        ;; nothing but blanks before the newline (a fifth field is one to report)
        (local.set $i (call $blanks (local.get $i) (local.get $end)))
        (if (i32.eqz (call $lineEnds (local.get $i) (local.get $end))) (then (return (i32.const -1))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        ;; a run starts where the qid is not the previous line's
        (if (i32.eqz (i32.and (i32.eq (local.get $qh) (local.get $ph))
                              (call $sameBytes (local.get $qs) (local.get $qe) (local.get $ps) (local.get $pe))))
          (then
            (local.set $a (i32.add (local.get $pRuns) (i32.shl (local.get $runs) (i32.const 4))))
            (i32.store (local.get $a) (local.get $n))
            (i32.store (i32.add (local.get $a) (i32.const 4)) (i32.sub (local.get $qs) (local.get $start)))
            (i32.store (i32.add (local.get $a) (i32.const 8)) (i32.sub (local.get $qe) (local.get $start)))
            (i32.store (i32.add (local.get $a) (i32.const 12)) (local.get $qh))
            (local.set $runs (i32.add (local.get $runs) (i32.const 1)))
            (local.set $ps (local.get $qs))
            (local.set $pe (local.get $qe))
            (local.set $ph (local.get $qh))))
        (memory.copy (local.get $o) (local.get $ds) (i32.sub (local.get $de) (local.get $ds)))
        (local.set $k4 (i32.shl (local.get $n) (i32.const 2)))
        (i32.store (i32.add (local.get $pId) (local.get $k4)) (i32.add (local.get $idBase) (local.get $n)))
        (i32.store (i32.add (local.get $pDoff) (local.get $k4))
                   (i32.add (local.get $arenaBase) (i32.sub (local.get $o) (local.get $arena))))
        (i32.store (i32.add (local.get $pDlen) (local.get $k4)) (i32.sub (local.get $de) (local.get $ds)))
        (i32.store (i32.add (local.get $pH) (local.get $k4)) (local.get $h))
        (i32.store (i32.add (local.get $pRel) (local.get $k4)) (local.get $rel))
        (i32.store (i32.add (local.get $pLine) (local.get $k4)) (i32.add (local.get $lineBase) (local.get $line)))
        (local.set $o (i32.add (local.get $o) (i32.sub (local.get $de) (local.get $ds))))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $nextLine)))
    (global.set $lines (local.get $line))
    (global.set $qids (local.get $runs))
    (global.set $arenaUsed (i32.sub (local.get $o) (local.get $arena)))
    (local.get $n))

  ;; the first byte at or after i that is not a blank (newline is not a blank)
  (func $blanks (param $i i32) (param $end i32) (result i32)
    (block $out
      (loop $l
        (br_if $out (i32.ge_u (local.get $i) (local.get $end)))
        (br_if $out (i32.ne (i32.load8_u (i32.load8_u (local.get $i))) (i32.const 1)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $l)))
    (local.get $i))

  ;; the first blank or newline at or after i
  (func $field (param $i i32) (param $end i32) (result i32)
    (block $out
      (loop $l
        (br_if $out (i32.ge_u (local.get $i) (local.get $end)))
        (br_if $out (i32.load8_u (i32.load8_u (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $l)))
    (local.get $i))

  ;; does the line end at i (the end of the input, or a newline)?
  (func $lineEnds (param $i i32) (param $end i32) (result i32)
    (i32.or (i32.ge_u (local.get $i) (local.get $end)) (i32.eq (i32.load8_u (local.get $i)) (i32.const 10))))

  ;; docnos of entries i and j: same length, same bytes
  (func $sameDocno (param $i i32) (param $j i32) (param $pO i32) (param $pL i32) (param $arena i32) (result i32)
    (local $len i32) (local $a i32) (local $b i32) (local $k i32)
    (local.set $len (i32.load (i32.add (local.get $pL) (i32.shl (local.get $i) (i32.const 2)))))
    (if (i32.ne (local.get $len) (i32.load (i32.add (local.get $pL) (i32.shl (local.get $j) (i32.const 2)))))
      (then (return (i32.const 0))))
    (local.set $a (i32.add (local.get $arena) (i32.load (i32.add (local.get $pO) (i32.shl (local.get $i) (i32.const 2))))))
    (local.set $b (i32.add (local.get $arena) (i32.load (i32.add (local.get $pO) (i32.shl (local.get $j) (i32.const 2))))))
    (block $out
      (loop $l
        (br_if $out (i32.ge_u (local.get $k) (local.get $len)))
        (if (i32.ne (i32.load8_u (i32.add (local.get $a) (local.get $k))) (i32.load8_u (i32.add (local.get $b) (local.get $k))))
          (then (return (i32.const 0))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $l)))
    (i32.const 1))

  ;; bytes [a, ae) and [b, be) are equal
  (func $sameBytes (param $a i32) (param $ae i32) (param $b i32) (param $be i32) (result i32)
    (if (i32.ne (i32.sub (local.get $ae) (local.get $a)) (i32.sub (local.get $be) (local.get $b)))
      (then (return (i32.const 0))))
    (block $out
      (loop $l
        (br_if $out (i32.ge_u (local.get $a) (local.get $ae)))
        (if (i32.ne (i32.load8_u (local.get $a)) (i32.load8_u (local.get $b)))
          (then (return (i32.const 0))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $l)))
    (i32.const 1))

  ;; after scan(), in place: local qid -> the builder's qid (map), docno offsets and lines from the
  ;; builder's arena and line count
  (func (export "finalize")
    (param $n i32) (param $pLocal i32) (param $pMap i32) (param $pDoff i32) (param $arenaBase i32)
    (param $pLine i32) (param $lineBase i32)
    (local $k4 i32) (local $end i32) (local $a i32)
    (local.set $end (i32.shl (local.get $n) (i32.const 2)))
    (block $out
      (loop $l
        (br_if $out (i32.ge_u (local.get $k4) (local.get $end)))
        (local.set $a (i32.add (local.get $pLocal) (local.get $k4)))
        (i32.store (local.get $a)
          (i32.load (i32.add (local.get $pMap) (i32.shl (i32.load (local.get $a)) (i32.const 2)))))
        (local.set $a (i32.add (local.get $pDoff) (local.get $k4)))
        (i32.store (local.get $a) (i32.add (i32.load (local.get $a)) (local.get $arenaBase)))
        (local.set $a (i32.add (local.get $pLine) (local.get $k4)))
        (i32.store (local.get $a) (i32.add (i32.load (local.get $a)) (local.get $lineBase)))
        (local.set $k4 (i32.add (local.get $k4) (i32.const 4)))
        (br $l))))

)
