# Issue 21: shootdown_seq_vs_conc names the CPUs each placement took at its
# largest count ("placement CLASS: targets 2,3 of CPU 0"); every one of them
# must be of CLASS seen from that CPU in topology.pair_classes (whose letters
# the validator recomputes from the CPU table). true when so, and at least
# one class placement was named; else the offending placements.
. as $r
| ($r.topology.pair_class_codes | to_entries | map({key: .value, value: .key}) | from_entries) as $code
| [$r.experiments[] | select(.id == "shootdown_seq_vs_conc") | .notes[]
   | capture("^placement (?<c>[a-z_0-9]+): targets (?<t>[0-9,]+) of CPU (?<i>[0-9]+)$")
   | select(.c != "spread")] as $named
| [$named[] | (.i | tonumber) as $i | .c as $c
   | select([.t | split(",")[] | tonumber | $r.topology.pair_classes[$i][. : . + 1] == $code[$c]] | all | not)
   | .c] as $bad
| if ($named | length) > 0 and ($bad | length) == 0 then true else {named: ($named | length), bad: $bad} end
