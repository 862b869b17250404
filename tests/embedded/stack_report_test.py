#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# covers: KERNEL-STACK
"""The stack analysis of tests/embedded/stack-report on hand-written
disassembly (the forms objdump prints for Cortex-M code): what it counts
as a frame, a call and a tail call, and what leaves a bound unknown. Each
case states the exact worst case (None: unknown). Prints "N passed, M
failed"; runs in make check (no cross tools needed)."""
import importlib.machinery
import importlib.util
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
loader = importlib.machinery.SourceFileLoader("stack_report", os.path.join(here, "stack-report"))
spec = importlib.util.spec_from_loader("stack_report", loader)
sr = importlib.util.module_from_spec(spec)
loader.exec_module(sr)

LEAF = """
00002000 <leaf>:
    2000:	push	{r4, r5, r6, lr}
    2002:	sub	sp, #16
    2004:	add	sp, #16
    2006:	pop	{r4, r5, r6, pc}
"""


def worst(text, entry="f"):
    info = sr.analyse(sr.parse_disassembly(text + LEAF))
    return sr.worst(info, entry)[0]


CASES = [
    ("a call adds the caller's frame", 32 + 32, """
00001000 <f>:
    1000:	push	{r4, r5, r6, r7, lr}
    1002:	sub	sp, #12
    1004:	bl	2000 <leaf>
    1008:	add	sp, #12
    100a:	pop	{r4, r5, r6, r7, pc}
"""),
    ("a tail call after the epilogue adds nothing", 32, """
00001000 <f>:
    1000:	push	{r4, r5, r6, r7, lr}
    1002:	sub	sp, #12
    1004:	mov	r0, r4
    1006:	add	sp, #12	@ 0xc
    1008:	ldmia.w	sp!, {r4, r5, r6, r7, lr}
    100c:	b.w	2000 <leaf>
"""),
    ("a branch that lands on the epilogue makes it no tail call", 32 + 32, """
00001000 <f>:
    1000:	push	{r4, r5, r6, r7, lr}
    1002:	sub	sp, #12
    1004:	cbz	r0, 100a <f+0xa>
    1006:	add	sp, #12
    1008:	pop	{r4, r5, r6, r7, lr}
    100a:	b.w	2000 <leaf>
"""),
    ("an epilogue that gives back less is no tail call", 32 + 32, """
00001000 <f>:
    1000:	push	{r4, r5, r6, r7, lr}
    1002:	sub	sp, #12
    1004:	add	sp, #8
    1006:	pop	{r4, r5, r6, r7, lr}
    1008:	b.w	2000 <leaf>
"""),
    ("a frame pushed by str ... [sp, #-N]! counts", 4 + 8 + 32, """
00001000 <f>:
    1000:	str.w	r8, [sp, #-4]!
    1004:	strd	r4, r5, [sp, #-8]!
    1008:	bl	2000 <leaf>
    100c:	ldrd	r4, r5, [sp], #8
    1010:	ldr.w	pc, [sp], #4
"""),
    ("a conditional branch to a function is a call", 16 + 32, """
00001000 <f>:
    1000:	push	{r4, r5, r6, lr}
    1002:	cbz	r0, 2000 <leaf>
    1004:	bne.w	2000 <leaf>
    1008:	pop	{r4, r5, r6, pc}
"""),
    ("blx through a register is unknown", None, """
00001000 <f>:
    1000:	push	{r4, lr}
    1002:	blx	sl
    1004:	pop	{r4, pc}
"""),
    ("bx through a register other than lr is unknown", None, """
00001000 <f>:
    1000:	bx	r3
"""),
    ("a move into pc is unknown", None, """
00001000 <f>:
    1000:	mov	pc, r2
"""),
    ("a change of sp by a register is unknown", None, """
00001000 <f>:
    1000:	push	{r7, lr}
    1002:	sub	sp, r3
    1004:	pop	{r7, pc}
"""),
    ("a switch table of the function's own code is followed", 8, """
00001000 <f>:
    1000:	push	{r7, lr}
    1002:	add	r1, pc, #4	@ (adr r1, 100c <f+0xc>)
    1004:	ldr.w	pc, [r1, r3, lsl #2]
    1008:	nop
    100c:	.word	0x00001015
    1010:	.word	0x00001017
    1014:	pop	{r7, pc}
    1016:	pop	{r7, pc}
"""),
    ("a table that leads out of the function is unknown", None, """
00001000 <f>:
    1000:	push	{r7, lr}
    1002:	add	r1, pc, #4	@ (adr r1, 100c <f+0xc>)
    1004:	ldr.w	pc, [r1, r3, lsl #2]
    1008:	nop
    100c:	.word	0x00002001
    1010:	pop	{r7, pc}
"""),
    ("recursion is unknown", None, """
00001000 <f>:
    1000:	push	{r7, lr}
    1002:	bl	1100 <g>
    1006:	pop	{r7, pc}

00001100 <g>:
    1100:	push	{r7, lr}
    1102:	bl	1000 <f>
    1106:	pop	{r7, pc}
"""),
    ("a call into the middle of a function is unknown", None, """
00001000 <f>:
    1000:	push	{r7, lr}
    1002:	bl	2002 <leaf+0x2>
    1006:	pop	{r7, pc}
"""),
]

passed = failed = 0
for what, want, text in CASES:
    got = worst(text)
    if got == want:
        passed += 1
    else:
        failed += 1
        print("FAIL %s: worst case %s, expected %s" % (what, got, want))
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
