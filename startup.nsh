@echo -off
# Run by the UEFI shell when it starts: finds the tlbscope stick and runs the tool.
# (Most firmware boots \EFI\BOOT\BOOTX64.EFI from the stick directly; this is for
# machines that start a shell instead.) Arguments may follow, e.g. exit=shutdown.
for %i in fs0 fs1 fs2 fs3 fs4 fs5 fs6 fs7 fs8 fs9
  if exist %i:\tlbscope\tlbscope.cfg then
    %i:
    if exist \tlbscope\tlbscope.efi then
      \tlbscope\tlbscope.efi
    else
      \EFI\BOOT\BOOTX64.EFI
    endif
    goto done
  endif
endfor
echo "tlbscope: no volume with \tlbscope\tlbscope.cfg found"
:done
