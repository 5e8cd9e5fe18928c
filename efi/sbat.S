/*
 * The .sbat section: Secure Boot Advanced Targeting metadata that shim
 * checks before it runs a signed image (https://github.com/rhboot/shim,
 * SBAT.md). The first line is the SBAT format itself; the second names this
 * program and its generation, which is raised when a signed release must be
 * revoked.
 */
    .section .sbat, "a"
    .incbin "efi/sbat.csv"
    .byte 0
    .section .note.GNU-stack, "", @progbits
