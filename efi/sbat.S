/*
 * The .sbat section: Secure Boot Advanced Targeting metadata that shim
 * checks before it runs a signed image (https://github.com/rhboot/shim,
 * SBAT.md). The first line is the SBAT format itself; the second names this
 * program: component tlbscope, generation 1 (raised when a signed release
 * must be revoked), vendor and package tlbscope, the version from the VERSION
 * file, and, where SBAT.md wants a URL "to look stuff up", the project's name:
 * tlbscope has no public web address, and an invented one would point
 * whoever reads the section to somebody else's host.
 *
 * efi/sbat.csv holds @VERSION@; efi/sbat.mk writes build/sbat.csv with the
 * version filled in, and both apps' rules (the Makefile for x86,
 * arch/arm64/arm64.mk for aarch64) pass its path as SBAT_CSV.
 */
#ifndef SBAT_CSV
#error "build with -DSBAT_CSV='\"path/to/sbat.csv\"' (the Makefile does)"
#endif
#ifdef __ELF__
    .section .sbat, "a"
#else
    /* COFF, the aarch64 app (clang --target=aarch64-unknown-windows, lld-link):
     * initialized data, read-only; lld-link keeps a section that is not COMDAT
     * even though nothing refers to it */
    .section .sbat, "dr"
#endif
    .incbin SBAT_CSV
    .byte 0
#ifdef __ELF__
    .section .note.GNU-stack, "", @progbits
#endif
