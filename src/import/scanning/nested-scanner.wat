;; The hot loop of json-elements.ts's splitter, 64 bytes at a time: skips through
;; nested JSON values, strings included, until the nesting depth falls back to a
;; floor. Built into nested-scanner-wasm.ts by `npm run build:wasm`.
;;
;; The caller copies the chunk to offset 0 and 64 zero bytes after it (every
;; 64-byte block is read whole), and starts outside any string. Each block's
;; quotes, backslashes and brackets become bit masks; escaped quotes are found
;; with simdjson's backslash-run arithmetic and the bytes inside strings with a
;; prefix XOR of the quotes (Langdale and Lemire, "Parsing gigabytes of JSON per
;; second", 2019). A block whose closing brackets cannot bring the depth down to
;; the floor only adds up its brackets; the others are walked bracket by bracket.
;;
;; It also counts the values and keys it passes — an opening bracket, a comma or
;; a colon outside strings starts one — against a budget: JSON.parse spends far
;; more memory on a value or a key than the bytes that write it, so a record is
;; bounded in values as in bytes, and is refused while it is read rather than
;; once it is whole.
(module
  (memory (export "memory") 2)
  ;; The depth, and at the chunk's end whether it ends inside a string and on an
  ;; escaping backslash there.
  (global $depth (export "depth") (mut i32) (i32.const 0))
  (global $inString (export "inString") (mut i32) (i32.const 0))
  (global $escapePending (export "escapePending") (mut i32) (i32.const 0))
  ;; The budget of values and keys left where the last scan stopped.
  (global $valuesLeft (export "valuesLeft") (mut i32) (i32.const 0))

  ;; The index after the bracket that brings the depth to `floor`, -1 if the
  ;; chunk (`end` bytes) ends first, or -2 once more than `valuesLeft` values
  ;; and keys have been passed.
  (func (export "skipNested") (param $from i32) (param $end i32) (param $floor i32) (param $startDepth i32) (param $valuesLeft i32) (result i32)
    (local $base i32) (local $depth i32)
    (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128)
    (local $quote v128) (local $backslash v128) (local $open v128) (local $close v128) (local $lower v128) (local $comma v128) (local $colon v128)
    (local $below i64) (local $quotes i64) (local $backslashes i64) (local $opens i64) (local $closes i64) (local $starts i64)
    (local $nextEscaped i64) (local $code i64) (local $escaped i64) (local $strings i64) (local $inString i64)
    (local $closing i32) (local $brackets i64) (local $at i64)
    (local.set $base (i32.and (local.get $from) (i32.const -64)))
    ;; The bytes of the first block before `from` are not looked at.
    (local.set $below (i64.shl (i64.const -1) (i64.extend_i32_u (i32.and (local.get $from) (i32.const 63)))))
    (local.set $depth (local.get $startDepth))
    (local.set $quote (i8x16.splat (i32.const 0x22)))
    (local.set $backslash (i8x16.splat (i32.const 0x5c)))
    (local.set $comma (i8x16.splat (i32.const 0x2c)))
    (local.set $colon (i8x16.splat (i32.const 0x3a)))
    ;; `{` and `[` differ only in bit 0x20, as do `}` and `]`.
    (local.set $lower (i8x16.splat (i32.const 0x20)))
    (local.set $open (i8x16.splat (i32.const 0x7b)))
    (local.set $close (i8x16.splat (i32.const 0x7d)))
    (block $chunkEnded
      (loop $blocks
        (br_if $chunkEnded (i32.ge_u (local.get $base) (local.get $end)))
        (local.set $v0 (v128.load offset=0 (local.get $base)))
        (local.set $v1 (v128.load offset=16 (local.get $base)))
        (local.set $v2 (v128.load offset=32 (local.get $base)))
        (local.set $v3 (v128.load offset=48 (local.get $base)))
        (local.set $quotes (i64.and (local.get $below)
          (i64.or
            (i64.or (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v0) (local.get $quote))))
                    (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v1) (local.get $quote)))) (i64.const 16)))
            (i64.or (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v2) (local.get $quote)))) (i64.const 32))
                    (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v3) (local.get $quote)))) (i64.const 48))))))
        (local.set $backslashes (i64.and (local.get $below)
          (i64.or
            (i64.or (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v0) (local.get $backslash))))
                    (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v1) (local.get $backslash)))) (i64.const 16)))
            (i64.or (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v2) (local.get $backslash)))) (i64.const 32))
                    (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v3) (local.get $backslash)))) (i64.const 48))))))
        (local.set $starts (i64.and (local.get $below)
          (i64.or
            (i64.or (i64.extend_i32_u (i8x16.bitmask (v128.or (i8x16.eq (local.get $v0) (local.get $comma)) (i8x16.eq (local.get $v0) (local.get $colon)))))
                    (i64.shl (i64.extend_i32_u (i8x16.bitmask (v128.or (i8x16.eq (local.get $v1) (local.get $comma)) (i8x16.eq (local.get $v1) (local.get $colon))))) (i64.const 16)))
            (i64.or (i64.shl (i64.extend_i32_u (i8x16.bitmask (v128.or (i8x16.eq (local.get $v2) (local.get $comma)) (i8x16.eq (local.get $v2) (local.get $colon))))) (i64.const 32))
                    (i64.shl (i64.extend_i32_u (i8x16.bitmask (v128.or (i8x16.eq (local.get $v3) (local.get $comma)) (i8x16.eq (local.get $v3) (local.get $colon))))) (i64.const 48))))))
        (local.set $v0 (v128.or (local.get $v0) (local.get $lower)))
        (local.set $v1 (v128.or (local.get $v1) (local.get $lower)))
        (local.set $v2 (v128.or (local.get $v2) (local.get $lower)))
        (local.set $v3 (v128.or (local.get $v3) (local.get $lower)))
        (local.set $opens (i64.and (local.get $below)
          (i64.or
            (i64.or (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v0) (local.get $open))))
                    (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v1) (local.get $open)))) (i64.const 16)))
            (i64.or (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v2) (local.get $open)))) (i64.const 32))
                    (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v3) (local.get $open)))) (i64.const 48))))))
        (local.set $closes (i64.and (local.get $below)
          (i64.or
            (i64.or (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v0) (local.get $close))))
                    (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v1) (local.get $close)))) (i64.const 16)))
            (i64.or (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v2) (local.get $close)))) (i64.const 32))
                    (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v3) (local.get $close)))) (i64.const 48))))))
        (local.set $below (i64.const -1))

        ;; Escaped bytes: those after an odd run of backslashes (simdjson's
        ;; escape scanner; a run may carry over from the block before).
        (local.set $code (i64.and (local.get $backslashes) (i64.xor (local.get $nextEscaped) (i64.const -1))))
        (local.set $code
          (i64.xor
            (i64.sub (i64.or (i64.shl (local.get $code) (i64.const 1)) (i64.const 0xaaaaaaaaaaaaaaaa)) (local.get $code))
            (i64.const 0xaaaaaaaaaaaaaaaa)))
        (local.set $escaped (i64.xor (local.get $code) (i64.or (local.get $backslashes) (local.get $nextEscaped))))
        (local.set $nextEscaped (i64.shr_u (i64.and (local.get $code) (local.get $backslashes)) (i64.const 63)))

        ;; Bytes inside strings: from an unescaped quote up to the next one.
        (local.set $strings (i64.and (local.get $quotes) (i64.xor (local.get $escaped) (i64.const -1))))
        (local.set $strings (i64.xor (local.get $strings) (i64.shl (local.get $strings) (i64.const 1))))
        (local.set $strings (i64.xor (local.get $strings) (i64.shl (local.get $strings) (i64.const 2))))
        (local.set $strings (i64.xor (local.get $strings) (i64.shl (local.get $strings) (i64.const 4))))
        (local.set $strings (i64.xor (local.get $strings) (i64.shl (local.get $strings) (i64.const 8))))
        (local.set $strings (i64.xor (local.get $strings) (i64.shl (local.get $strings) (i64.const 16))))
        (local.set $strings (i64.xor (local.get $strings) (i64.shl (local.get $strings) (i64.const 32))))
        (local.set $strings (i64.xor (local.get $strings) (local.get $inString)))
        (local.set $inString (i64.shr_s (local.get $strings) (i64.const 63)))
        (local.set $opens (i64.and (local.get $opens) (i64.xor (local.get $strings) (i64.const -1))))
        (local.set $closes (i64.and (local.get $closes) (i64.xor (local.get $strings) (i64.const -1))))
        ;; Where values and keys start: the brackets that open one, the commas and colons before one.
        (local.set $starts (i64.or (local.get $opens) (i64.and (local.get $starts) (i64.xor (local.get $strings) (i64.const -1)))))

        (local.set $closing (i32.wrap_i64 (i64.popcnt (local.get $closes))))
        (if (i32.gt_s (i32.sub (local.get $depth) (local.get $closing)) (local.get $floor))
          (then
            (local.set $depth (i32.add (local.get $depth)
              (i32.sub (i32.wrap_i64 (i64.popcnt (local.get $opens))) (local.get $closing))))
            (local.set $valuesLeft (i32.sub (local.get $valuesLeft) (i32.wrap_i64 (i64.popcnt (local.get $starts))))))
          (else
            (local.set $brackets (i64.or (local.get $opens) (local.get $closes)))
            (block $walked
              (loop $walk
                (br_if $walked (i64.eqz (local.get $brackets)))
                (local.set $at (i64.ctz (local.get $brackets)))
                (if (i64.ne (i64.and (i64.shr_u (local.get $opens) (local.get $at)) (i64.const 1)) (i64.const 0))
                  (then (local.set $depth (i32.add (local.get $depth) (i32.const 1))))
                  (else
                    (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
                    (if (i32.eq (local.get $depth) (local.get $floor))
                      (then
                        ;; The values up to this bracket count; those after it are another's.
                        (local.set $valuesLeft (i32.sub (local.get $valuesLeft)
                          (i32.wrap_i64 (i64.popcnt (i64.and (local.get $starts) (i64.sub (i64.shl (i64.const 1) (local.get $at)) (i64.const 1)))))))
                        (if (i32.lt_s (local.get $valuesLeft) (i32.const 0)) (then (return (i32.const -2))))
                        (global.set $valuesLeft (local.get $valuesLeft))
                        (global.set $depth (local.get $depth))
                        (global.set $inString (i32.const 0))
                        (global.set $escapePending (i32.const 0))
                        (return (i32.add (i32.add (local.get $base) (i32.wrap_i64 (local.get $at))) (i32.const 1)))))))
                (local.set $brackets (i64.and (local.get $brackets) (i64.sub (local.get $brackets) (i64.const 1))))
                (br $walk)))
            (local.set $valuesLeft (i32.sub (local.get $valuesLeft) (i32.wrap_i64 (i64.popcnt (local.get $starts)))))))
        (if (i32.lt_s (local.get $valuesLeft) (i32.const 0)) (then (return (i32.const -2))))
        (local.set $base (i32.add (local.get $base) (i32.const 64)))
        (br $blocks)))
    ;; The chunk ended. The zeros after it hold no quote, so the string state at
    ;; its end is the last block's; the byte after it is escaped if its bit in
    ;; that block (or, for a chunk ending on a block's edge, the carry) says so.
    (global.set $depth (local.get $depth))
    (global.set $valuesLeft (local.get $valuesLeft))
    (global.set $inString (i32.wrap_i64 (i64.and (local.get $inString) (i64.const 1))))
    (global.set $escapePending
      (i32.and (global.get $inString)
        (if (result i32) (i32.and (local.get $end) (i32.const 63))
          (then (i32.wrap_i64 (i64.and (i64.shr_u (local.get $escaped) (i64.extend_i32_u (i32.and (local.get $end) (i32.const 63)))) (i64.const 1))))
          (else (i32.wrap_i64 (local.get $nextEscaped))))))
    (i32.const -1)))
