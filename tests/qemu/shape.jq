# The expected shape of a tlbscope report, stated once (tests/qemu/lib.sh
# check_shape, tests/sim/*.sh, tests/checks/shape_check.sh). Given what a run
# was asked for, it derives from the experiments' code (core/exp/*.c, their
# methods at the top) what every experiment must have recorded, and compares:
#
#   - the list of experiments, in table order, and each one's status, reason
#     (SKIP), emulated and partial flags;
#   - the full parameter grid of its results (every point present once, none
#     extra) and each metric's sample count (samples, or the baseline's
#     max(1, samples / 4)); shootdown_seq_vs_conc's breakdown values on every
#     point, ipi_roundtrip's send metric;
#   - verification.checks exactly (less verification.pilot_checks, the reads
#     of a planning pilot: every profile is planned since issue 20, and the
#     grid must then have run as configured): every read of every CPU, a
#     function of samples S, warm-up W, targets and pages (k targets, p pages):
#       shootdown_seq_vs_conc  sum over (k, p, flush) of (k+1) p (1 + 2 (W+S))
#                              (p above the ceiling once per full-flush
#                              method: cr3_reload, and invpcid_single_context
#                              where INVPCID works or is emulated; from issue
#                              20 the methods of a p are measured together
#                              and primed once: the 1 per (k, p))
#                              (a priming read, then per sample both orders:
#                              each target after its flush and the initiator;
#                              with an AP initiator the BSP is a target and
#                              primes only once: k p fewer per point)
#       shootdown_lazy         sum over k lazy of 4 (T+1)(1+W+S) + 2 (W+S) k
#                              (T targets; skip_lazy and xen_running skip the
#                              k lazy CPUs, which read at switch-back; ipi_all
#                              and freed_tables interrupt them too); from issue
#                              20 the policies share one priming per k:
#                              (T+1)(1+4(W+S)) + 2 (W+S) k
#       stale_detector_control 16 rounds x N CPUs (the reads after the full flush)
#       pti_double_invalidation sum over variant, kind, p of u p CPUs (1+W+S),
#                              u = 2 with PTI (kernel and user PCID), 1 without;
#                              from issue 20 one priming per (kind, p), in both
#                              PCIDs: 2 p CPUs + sum over variants u p CPUs (W+S)
#       invlpgb_range          c (1+W+S) times the pages of every point, c its
#                              CPUs (N, or 2, 4, ... < N in the sweep; 1 page
#                              for the pcid form; 4 KiB forms twice under pti=on,
#                              2 MiB ones too from issue 32 (method.lfence);
#                              the chunked alternative above the ceiling its own
#                              point); from issue 20 the points of a range
#                              (INVLPGB, IPI and the chunked alternative) share
#                              one priming: c (1 + P(W+S)) per range, P points
#       flush_ceiling          sum over kind k (0 local, 1, all), (form, W), p
#                              of (k+1) p (1 + M (W'+S')), M modes (2, 3 with
#                              INVPCID), S' = S/20 in [10, 50], W' = W/20
#                              (at least 2 from issue 32); (form, W): every W
#                              contiguous, and 512 scattered_cold (from issue
#                              20); from issue 32 the same for each point
#                              `added` where a planned share had room
#       shootdown_contention   per (mode, method, p pages, m initiators),
#                              S' = max(10, S/10), W' = min(W, 3), k =
#                              max(2, ceil(S'/m)): its latency point (priming
#                              and W'+k rounds, every round checked after all
#                              windows closed) all: p N + (m-1) p (N-1) +
#                              m (W'+k) p N; groups: p N + (W'+k) p N; its
#                              steady point (the final check once the loop
#                              stopped) all: m p N; groups: p N
#   - every experiment that was not skipped records its conditions (SMI
#     counter or hiccup detector, APERF/MPERF or why not, boost, SMT,
#     target_wait): the SMI method by vendor and family (MSR 0x34 on Intel,
#     the PMC's LsSmiRx on AMD from family 17h, never trusted under a
#     hypervisor), a counted total that is the sum of its per-CPU counts,
#     the clock's roles exactly with APERF/MPERF; ipi_target_state's states
#     and sample counts;
#   - stale_reads 0, and for the negative control: every CPU read stale in
#     every one of its 16 rounds;
#   - emulated INVLPGB: each invlpgb point's emulated_invlpgb is (W+S) times
#     its INVLPGBs (chunks, ceil(pages / 8); one on Linux's path above the
#     ceiling and for the pcid form), emulated_tlbsync (W+S) + max(1, S/4),
#     and 0 for every IPI point; their sums are the experiment's note;
#   - reports of issue 20 on (method.variant_order present): no p90 of fewer
#     than 10 samples and no p99 of fewer than 100 in any metric (nearest rank
#     would be the maximum), and every p90/p99 there from that count on; the
#     variant order varied: in shootdown_seq_vs_conc, shootdown_lazy,
#     pti_double_invalidation, flush_ceiling and invlpgb_range the `ran_first`
#     of the variants measured together sum to the samples, and every variant
#     (invlpgb_range: method and path) began some iterations.
#
# Input: the report. $want: {cpus, usable, profile, samples, warmup, ceiling,
# ipi_pairs, experiments ("all" or "a,b"), emulate ("invlpgb,invpcid"),
# pcid, invpcid, invlpgb (0/1; default: the report's cpu.features), pcid_erratum
# (0/1: the tool runs without PCID for the INVLPG/global erratum; default: the
# report's method.pcid_erratum.affected), pti
# (0/1), global_pages (0/1), cpu_list (the cpus= key, default "all"),
# initiator (default 0), has_2m (0/1, default 1), invlpgb_sweep (0/1, default
# 1: 0 for reports older than invlpgb_range's CPU sweep)}, all as strings or numbers.
# Output: one {ok, what} per check.

def table: ["ipi_roundtrip", "ipi_broadcast", "stale_detector_control", "shootdown_seq_vs_conc",
            "shootdown_lazy", "pti_double_invalidation", "invlpgb_range", "flush_ceiling",
            "shootdown_contention", "ipi_target_state"];
def profiles: {"default": [1000, 100, 256], "quick": [100, 10, 64], "full": [10000, 1000, 1024]};
# runner_power_series(): 1, 2, 4, ... below max, then max
def series($max): [range(0; 31) | pow(2; .) | floor | select(. < $max)] + (if $max >= 1 then [$max] else [] end);
# contention_m_series(): 1, 2, 4, ... up to min(max, page limit), ending with it
def m_series($max; $limit): ([$max, $limit] | min) as $x | series($x);
def words: if . == null or . == "" then [] else split(",") end;
def bool01: if . == null then null elif type == "boolean" then . else (tostring | . == "1" or . == "true" or . == "on") end;
def int: if type == "string" then tonumber else . end;
def ceil_div($a; $b): (($a + $b - 1) / $b | floor);
def sum: reduce .[] as $x (0; . + $x);
def chk($what; $ok): {ok: $ok, what: $what};
# compare got and want: the check names both when they differ
def eq($what; $got; $want): if $got == $want then chk($what; true)
    else chk("\($what): got \($got | tojson | .[0:300]), want \($want | tojson | .[0:300])"; false) end;
# a grid of points: same set, each once
def grid($what; $got; $want):
    ($got | sort) as $g | ($want | sort) as $w |
    if $g == $w then chk("\($what): all \($w | length) points, each once"; true)
    else chk("\($what): \($g | length) points, want \($w | length); missing \(($w - $g)[0:3] | tojson), extra \(($g - $w)[0:3] | tojson)\(if ($g | unique | length) != ($g | length) then ", some twice" else "" end)"; false) end;

def shape($want):
  . as $r
  | (($want.profile // $r.run.config.profile // "default")) as $prof
  | (profiles[$prof] // profiles["default"]) as $pd
  | ($want.samples // $pd[0] | int) as $S
  | ($want.warmup // $pd[1] | int) as $W
  | ($want.ipi_pairs // $pd[2] | int) as $P
  | ($want.ceiling // 33 | int) as $C
  | ([1, (($S / 4) | floor)] | max) as $B
  | ($want.cpus | int) as $ncpu
  | ($want.usable // $want.cpus | int) as $N
  | ($N - 1) as $T
  | ($want.emulate | words) as $emu
  | ($want.pcid // $r.cpu.features.pcid | bool01) as $pcid
  # the CPU has PCID but the tool runs without it: the INVLPG/global erratum at this microcode
  | ($want.pcid_erratum // $r.method.pcid_erratum.affected // false | bool01) as $pcid_off
  | ($want.invpcid // $r.cpu.features.invpcid | bool01) as $invpcid
  | ($want.invlpgb // $r.cpu.features.invlpgb | bool01) as $invlpgb
  | ($want.pti // false | bool01) as $pti
  | ($want.has_2m // true | bool01) as $has2m
  | ($want.invlpgb_sweep // true | bool01) as $sweep
  | ($want.global_pages // false | bool01) as $global
  | ($want.cpu_list // "all" | tostring) as $cpulist
  | ($want.initiator // 0 | int) as $init
  | "^global_pages=on: the test pages are kernel" as $kernel_only
  # a schema version 1 report predates flush_ceiling (version 2)
  | [table[] | select(. != "flush_ceiling" or (($r.schema_version // 1) >= 2))] as $table
  | (if ($want.experiments // "all") == "all" then $table
     else ($want.experiments | words) as $sel | [$table[] | select(. as $id | $sel | index($id))] end) as $ids
  | ($emu | index("invpcid") != null and ($invpcid | not)) as $ff_emulated
  # reports of issue 10 on (method.verification present): the flush methods of seq/conc, the
  # timed return to user, equal class pooling, pti per INVLPGB point; earlier ones (the
  # samples until regenerated) keep the shape they were written with
  | ($r.method.verification != null) as $v10
  # reports of issue 20 on: percentiles only from enough samples, variant order per iteration
  | ($r.method.variant_order != null) as $v20
  | ($r.method.lazy_cpus != null) as $v21
  | ($v10 and ($invpcid or $ff_emulated)) as $ff_variant
  | ([$r.topology.cpus[]? | select(.state == "ok")]) as $ok
  | [$ok[].index] as $okidx
  # reports of issue 21 on (topology.classes present): L3 and NUMA classes, placement points
  | ($r.topology.classes != null) as $v21
  | ($v21 and $r.method.apic_mode == "x2apic") as $cluster
  # reports of issue 32 on: another NUMA node of the same package is a class of its own
  | ($r.topology.pair_class_codes.o != null) as $snc
  | def exp($id): [$r.experiments[]? | select(.id == $id)][0];
    # the topology class of CPU $b seen from CPU $a (core/machine/cpu_table.c)
    def cls($a; $b):
        if $a.index == $b.index then "self"
        elif $a.package != $b.package then
          (if ($v21 | not) or $a.numa_node == null or $b.numa_node == null then "cross_package"
           elif $a.numa_node == $b.numa_node then "same_node" else "cross_node" end)
        elif $a.core == $b.core then "smt_sibling"
        elif $snc and $a.numa_node != null and $b.numa_node != null and $a.numa_node != $b.numa_node
          then "same_package_other_node"
        elif $v21 and $a.l3 != null and $b.l3 != null and $a.l3 == $b.l3 then "same_l3"
        else "same_package" end;
    def classes: ["smt_sibling", "same_l3", "same_package"] + (if $snc then ["same_package_other_node"] else [] end)
                 + ["same_node", "cross_node", "cross_package"];
    # the class mix of the k nearest usable CPUs seen from CPU $i (runner_targets_in_topology_order)
    def near_mix($i; $k): ([$ok[] | select(.index == $i)][0]) as $a
        | [$ok[] | select(.index != $i) | {c: cls($a; .), x: .index}]
        | sort_by([(.c as $c | classes | index($c)), .x]) | .[0:$k]
        | group_by(.c) | map({key: .[0].c, value: length}) | from_entries;
    # how many usable CPUs a placement has seen from CPU $i ("spread": every other one)
    def pl_size($i; $c): ([$ok[] | select(.index == $i)][0]) as $a
        | [$ok[] | select(.index != $i and ($c == "spread" or cls($a; .) == $c))] | length;
    # whether the BSP is among k targets of CPU $i ($i != 0) drawn by placement $pl (null: nearest
    # first): then it primes once, as a target; else it also reads as the caller
    def bsp_in($i; $pl; $k): ([$ok[] | select(.index == $i)][0]) as $a | ([$ok[] | select(.index == 0)][0]) as $b
        | if $pl == null then ([$ok[] | select(.index != $i) | cls($a; .) as $c | classes | index($c)]
                               | map(select(. < (classes | index(cls($a; $b))))) | length) < $k
          # spread (core/machine/placement.c pick_spread): round-robin over (node, package, L3)
          # domains, the BSP's domain first (it is found first, so its order key is 0), and the
          # first round takes each domain's lowest-numbered CPU: the BSP, at any k >= 1
          elif $pl == "spread" then $k >= 1
          else cls($a; $b) == $pl end;
    # placements are measured only where CPU $i's CPUs fall in 2 classes or more (else a note)
    def pl_differ($i): ([classes[] | select(pl_size($i; .) > 0)] | length) >= 2;
    # a placement's counts: 1, 2, 4 ... $max, the first three and the last (core/exp/*.c)
    def pl_counts($max): series($max) as $s | [range(0; $s | length) | select(. < 3 or . == ($s | length) - 1) | $s[.]];
    def ns($e; $m): [$e.results[]?.metrics[$m].n] | unique;
    def vals($e): $e.verification;
    # status, flags, verification of a measured experiment
    def measured($id; $emulated; $checks):
        exp($id) as $e
        | eq("\($id): status, emulated, partial"; [$e.status, $e.emulated, $e.partial]; ["SUCCESS", $emulated, false]),
          eq("\($id): verification checks (exact), stale reads"; [$e.verification.applicable, $e.verification.checks - ($e.verification.pilot_checks // 0), $e.verification.stale_reads]; [true, $checks, 0]);
    # the variants measured together (same $keys) ran first in S iterations in all, each in some
    # ($variant: the parameters that tell the variants apart). "Each in some" is required only
    # where chance cannot break it: with k variants drawn first at random in N iterations, one
    # never first has probability up to k((k-1)/k)^N, required below one in a million (k = 4:
    # N >= 54). With fewer (a small random configuration: 10 samples, 2 groups, 4 variants,
    # 0.3%), the sums still must hold; a fixed order (mutant order_fixed) runs where N is large.
    def order_varied($id; $e; $variant; $keys; $n):
        ($e.results // []) as $pts
        | ($variant | join("/")) as $name
        | ($pts | group_by([.params[$variant[]]]) | length) as $k
        | ($n * ($pts | group_by([.params[$keys[]]]) | length)) as $iters
        | ($k <= 1 or $k * pow(($k - 1) / $k; $iters) < 1e-6) as $required
        | chk("\($id): the variant order varied: the ran_first of each group of \($name)s sum to \($n), every \($name) began some iterations\(if $required then "" else " (not required: \($iters) iterations of \($k) \($name)s)" end)";
              ($pts | length) > 0
              and ([$pts | group_by([.params[$keys[]]])[] | [.[].values.ran_first] | add] | unique) == [$n]
              and (($required | not)
                   or ([$pts | group_by([.params[$variant[]]])[] | [.[].values.ran_first] | add > 0] | all)));
    def skipped($id; $pattern):
        exp($id) as $e
        | chk("\($id): SKIP, reason matching '\($pattern)'\(if $e.status != "SKIP" or (($e.reason // "") | test($pattern) | not) then ": got \($e.status) (\($e.reason))" else "" end)";
              $e.status == "SKIP" and (($e.reason // "") | test($pattern)));

  # ---- the run ----
    eq("experiments recorded, in table order"; [$r.experiments[]?.id]; $ids),
    # (a cpus= list is written back clipped to the machine: only "all" is compared)
    eq("run.config samples/warmup/ceiling/ipi_pairs/initiator/cpus";
       [$r.run.config | .samples, .warmup, .ceiling, .ipi_pairs, .initiator, (if $cpulist == "all" then .cpus else "a list" end)];
       [$S, $W, $C, $P, $init, (if $cpulist == "all" then "all" else "a list" end)]),
    eq("topology: CPUs, CPUs taking part"; [$r.topology.cpu_count, ($ok | length)]; [$ncpu, $N]),

  # ---- ipi_roundtrip ----
  (select($ids | index("ipi_roundtrip")) |
    if $N < 2 then skipped("ipi_roundtrip"; "^needs at least 2 CPUs") else
    exp("ipi_roundtrip") as $e
    | ($N * $T) as $all
    | eq("ipi_roundtrip: status, emulated, partial"; [$e.status, $e.emulated, $e.partial]; ["SUCCESS", false, false]),
      # every measured pair contributes samples_per_pair samples to its class's summary
      (select($v10) | eq("ipi_roundtrip: each class summary pools every pair of the class, samples_per_pair each";
         [$e.summary[]? | [.params.class, .values.pairs, .metrics.latency.n == (.values.pairs // 0) * (.values.samples_per_pair // 0)]] | sort;
         [$e.results | group_by(.params.class)[] | [.[0].params.class, length, true]] | sort)),
      eq("ipi_roundtrip: latency, send and baseline of \($S) samples each"; [ns($e; "latency"), ns($e; "send"), ns($e; "baseline")]; [[$S], [$S], [$S]]),
      (if $all <= $P then
         grid("ipi_roundtrip: every ordered pair of the \($N) CPUs"; [$e.results[]?.params | [.initiator, .target]];
              [$okidx[] as $i | $okidx[] as $j | select($i != $j) | [$i, $j]])
       else
         # choose_pairs(): per topology class min(quota, pairs), quota = max(1, ipi_pairs / classes)
         ([$ok[] as $a | $ok[] as $b | select($a.index != $b.index)
           | cls($a; $b)]
          | group_by(.) | map({key: .[0], value: length}) | from_entries) as $per
         | ([1, (($P / ($per | length)) | floor)] | max) as $quota
         | ($per | with_entries(.value = ([.value, $quota] | min))) as $take
         | eq("ipi_roundtrip: pairs sampled per class (\($all) pairs > ipi_pairs=\($P))";
              [$e.results[]?.params.class] | group_by(.) | map({key: .[0], value: length}) | from_entries; $take),
           eq("ipi_roundtrip: distinct pairs"; [$e.results[]?.params | [.initiator, .target]] | unique | length; $take | [.[]] | sum),
           eq("ipi_roundtrip: the note says how pairs were sampled"; $e.notes;
              ["\($all) ordered pairs exceed ipi_pairs=\($P): \($take | [.[]] | sum) pairs sampled evenly per topology class"])
       end)
    end),

  # ---- ipi_broadcast ----
  (select($ids | index("ipi_broadcast")) |
    if $N < 2 then skipped("ipi_broadcast"; "^needs at least 2 CPUs") else
    exp("ipi_broadcast") as $e
    | eq("ipi_broadcast: status, emulated, partial"; [$e.status, $e.emulated, $e.partial]; ["SUCCESS", false, false]),
      eq("ipi_broadcast: latency and baseline of \($S) samples each"; [ns($e; "latency"), ns($e; "baseline")]; [[$S], [$S]]),
      # the all-but-self shorthand reaches every CPU: only with all of them taking part (cpus=all)
      ($N == $ncpu and $cpulist == "all") as $sh
      | grid("ipi_broadcast: unicast\(if $cluster then " and x2APIC cluster mode" else "" end) to k = \(series($T) | join(",")) targets\(if $sh then ", shorthand to \($T)" else "" end)";
           [$e.results[]?.params | [.mode, .targets]];
           [series($T)[] | ["unicast_each", .], (select($cluster) | ["cluster", .])] + (if $sh then [["shorthand", $T]] else [] end)),
        # issue 21: a cluster point says how many logical ICR writes it made: one per cluster of 16 APIC IDs
        (select($v21) | eq("ipi_broadcast: icr_writes on cluster points only, at least one, at most one per target";
           [$e.results[]? | [.params.mode, (.values.icr_writes != null),
                             ((.values.icr_writes // 1) >= 1 and (.values.icr_writes // 0) <= .params.targets)]] | unique;
           [([$e.results[]?.params.mode] | unique)[] | [., . == "cluster", true]])),
        (select($v21) | eq("ipi_broadcast: a note when cluster mode was not measured";
           [$e.notes[]? | select(startswith("cluster mode not measured"))] | length; if $cluster then 0 else 1 end)),
        eq("ipi_broadcast: a note when the shorthand was not measured";
           [$e.notes[]? | select(startswith("shorthand"))];
           if $sh then [] else ["shorthand (all-but-self) not measured: it needs every CPU usable and taking part"] end)
    end),

  # ---- stale_detector_control: every CPU reads stale in every round ----
  (select($ids | index("stale_detector_control")) |
    exp("stale_detector_control") as $e
    | measured("stale_detector_control"; false; 16 * $N),
      eq("stale_detector_control: 16 rounds on \($N) CPUs, every CPU stale in every round";
         [$e.results[]? | [.params.rounds, .params.cpus, .values.cpus_reading_stale_max, .values.stale_reads_without_invalidation]];
         [[16, $N, $N, 16 * $N]]),
      eq("stale_detector_control: its note"; $e.notes;
         ["up to \($N) of \($N) CPUs read the old signature without invalidation (\(16 * $N) stale reads in 16 rounds): the verifier sees stale entries here"])),

  # ---- shootdown_seq_vs_conc ----
  (select($ids | index("shootdown_seq_vs_conc")) |
    if $N < 2 then skipped("shootdown_seq_vs_conc"; "^needs at least 2 CPUs") else
    exp("shootdown_seq_vs_conc") as $e
    | ([1, 2, 4, 8, 16, 32, 64, 512] + (if $C <= 512 then [$C] else [] end) | unique) as $pages
    # (pages, flush): invlpg up to the ceiling, above it each full-flush method
    | [$pages[] | if ($v10 | not) then [., null] elif . <= $C then [., "invlpg"] else [., "cr3_reload"], (if $ff_variant then [., "invpcid_single_context"] else empty end) end] as $cols
    | series($T) as $ks
    # issue 21: [placement, ipi_mode, targets] of the one-page points beside the grid: each
    # class the initiator has CPUs of, spread below every CPU, x2APIC cluster mode at the grid's counts
    | (if $v21 then
         (if pl_differ($init) then
            [classes[] as $c | pl_size($init; $c) as $n | select($n > 0) | pl_counts($n)[] | [$c, null, .]]
            + [(pl_size($init; "spread") - 1) as $n | select($n > 0) | pl_counts($n)[] | ["spread", null, .]]
          else [] end)
         + [select($cluster) | $ks[] | [null, "x2apic_cluster", .]]
       else [] end) as $extra
    | ($ks | map([null, null, .])) as $grid_rows
    # (from issue 20 the flush methods of a page count share one priming: once per (k, p))
    | measured("shootdown_seq_vs_conc"; $ff_emulated and ($C < 512 or ($v10 | not));
               ([$ks[] as $k | $cols[] | .[0] as $p | ($k + 1) * $p * 2 * ($W + $S)] | sum) +
               ([$ks[] as $k | (if $v20 then ($cols | map(.[0]) | unique) else ($cols | map(.[0])) end)[] as $p
                 | (if $init == 0 or ($v21 and (bsp_in($init; null; $k) | not)) then $k + 1 else $k end) * $p] | sum) +
               ([$extra[] | .[2] as $k | ($k + 1) * 2 * ($W + $S) +
                 (if $init == 0 or (bsp_in($init; .[0]; $k) | not) then $k + 1 else $k end)] | sum)),
      grid("shootdown_seq_vs_conc: seq and conc x targets \($ks | join(",")) x (pages, flush) \($cols | map(join(" ")) | join(","))\(if $v21 then ", and at one page per placement \($extra | map(map(. // "-" | tostring) | join(" ")) | join(","))" else "" end)";
           [$e.results[]?.params | [.mode, .placement, .ipi_mode, .targets, .pages, .flush]];
           [["seq", "conc"][] as $m | ($grid_rows[] as [$pl, $im, $k] | $cols[] | [$m, $pl, $im, $k, .[0], .[1]]),
                                      ($extra[] as [$pl, $im, $k] | [$m, $pl, $im, $k, 1, "invlpg"])]),
      grid("shootdown_seq_vs_conc: a conc/seq summary per (placement, ipi_mode, targets, pages, flush)";
           [$e.summary[]? | [.params.placement, .params.ipi_mode, .params.targets, .params.pages, .params.flush, (.values | keys)]];
           (["conc_over_seq_p50"] + (if $S >= 100 or ($v20 | not) then ["conc_over_seq_p99"] else [] end)) as $sk
           | [($grid_rows[] as [$pl, $im, $k] | $cols[] | [$pl, $im, $k, .[0], .[1], $sk]),
              ($extra[] as [$pl, $im, $k] | [$pl, $im, $k, 1, "invlpg", $sk])]),
      (select($v21) | eq("shootdown_seq_vs_conc: a note per class the initiator has no CPU of";
         [$e.notes[]? | select(startswith("placement ") and endswith("of that class"))];
         if pl_differ($init) then [classes[] | select(pl_size($init; .) == 0) | "placement \(.) skipped: CPU \($init) has no usable CPU of that class"] else [] end)),
      (select($v20) | order_varied("shootdown_seq_vs_conc"; $e; ["mode"]; ["targets", "pages", "placement", "ipi_mode"]; $S)),
      # issue 32: each point's class mix, counted from the initiator: a class placement's
      # targets all of it, nearest first the k nearest, spread's adding up to k
      (select($e.results[0]?.class_mix != null)
       | eq("shootdown_seq_vs_conc: every point's class_mix, seen from CPU \($init)";
            [$e.results[]? | .params as $p | .class_mix
             | if $p.placement == null then . == near_mix($init; $p.targets)
               elif $p.placement == "spread" then ([.[]] | add) == $p.targets
               else . == {($p.placement): $p.targets} end] | unique; [true])),
      eq("shootdown_seq_vs_conc: latency, remote_handler, baseline sample counts";
         [ns($e; "latency"), ns($e; "remote_handler"), ns($e; "baseline")]; [[$S], [$S], [$B]]),
      # where the time goes: each part's p50 (reports before issue 32), or its mean with the
      # target that acked last (issue 32, item 9): the means add up to the mean latency
      # (seq all four; conc without the local flush, which runs inside its wait)
      ($e.results[0]?.values.send_mean != null) as $means
      | (if $means then ["send_mean", "local_flush_mean", "last_handler_mean", "delivery_ack_mean"]
         else ["send_p50", "local_flush_p50", "delivery_ack_p50"] end) as $pk
      | eq("shootdown_seq_vs_conc: every point's breakdown (send, local flush, delivery+ack \(if $means then "means, adding up" else "p50" end))";
         [$e.results[]? | . as $pt | [(.values // {} | keys),
                           ([$pk[] as $k | $pt.values[$k]] | map(. >= 0) | all),
                           (.values[$pk[0]] > 0),
                           if $means then
                             (([.values.send_mean, .values.last_handler_mean, .values.delivery_ack_mean] | add)
                              + (if .params.mode == "seq" then .values.local_flush_mean else 0 end)
                              - .metrics.latency.mean | fabs) <= 1.01
                           else ([.values.send_p50, .values.delivery_ack_p50] | max) <= .metrics.latency.max end]] | unique;
         # x2APIC cluster points also count their logical ICR writes
         [([], (select($cluster) | ["icr_writes"])) as $x
          | [(if $means then ["delivery_ack_mean"] + $x + ["last_ack_cpu", "last_ack_share", "last_handler_mean", "local_flush_mean", "ran_first", "send_mean"]
              else ["delivery_ack_p50"] + $x + ["local_flush_p50"] + (if $v20 then ["ran_first"] else [] end) + ["send_p50"] end), true, true, true]] | unique)
    end),

  # ---- shootdown_lazy ----
  (select($ids | index("shootdown_lazy")) |
    if $global then skipped("shootdown_lazy"; $kernel_only)
    elif $N < 2 then skipped("shootdown_lazy"; "^needs at least 2 CPUs") else
    exp("shootdown_lazy") as $e
    | (if $T <= 8 then [range(0; $T + 1)] else [0] + series($T) end) as $ks
    # (from issue 21 the lazy CPUs idle, and with spinning targets one more row, at the
    # largest k below T, has the other targets in a busy loop: targets_doing busy_ws)
    | ([$ks[] | [., "wait"]] + (if $v21 and ($ks | length) >= 2 and $r.method.target_wait == "spin" then [[$ks[-2], "busy_ws"]] else [] end)) as $rows
    | ["skip_lazy", "ipi_all", "freed_tables", "xen_running"] as $variants
    # (from issue 20 the four policies of a k are measured together and primed once)
    | measured("shootdown_lazy"; $ff_emulated and ($v10 | not);
               [$rows[] | .[0] | (if $v20 then ($T + 1) * (1 + 4 * ($W + $S)) else 4 * ($T + 1) * (1 + $W + $S) end)
                        + 2 * ($W + $S) * .] | sum),
      (select($v20) | order_varied("shootdown_lazy"; $e; ["variant"]; ["lazy", "targets_doing"]; $S)),
      # issue 32: the lazy CPUs idle in the deepest MWAIT state ipi_target_state found reached
      # in this run (the highest hint), else in HLT (method.lazy_idle, absent before)
      (select($r.method.lazy_idle != null)
       | ([(exp("ipi_target_state") // {}) | .results[]? | select(.params.hint != null and .params.residency == "reached")]
          | max_by(.params.hint)) as $deepest
       | eq("shootdown_lazy: the lazy CPUs idle in \($deepest.params.state // "hlt") (the deepest MWAIT state ipi_target_state verified, else hlt), said in a note";
            [$r.method.lazy_idle.state, $r.method.lazy_idle.hint,
             ([$e.notes[]? | select(startswith("lazy CPUs idle in \($r.method.lazy_idle.state): "))] | length)];
            [$deepest.params.state // "hlt", $deepest.params.hint, 1])),
      grid("shootdown_lazy: 4 policies x lazy \($rows | map(if .[1] == "wait" then .[0] else "\(.[0]) busy" end) | join(",")) of \($T) targets";
           [$e.results[]?.params | [.variant, .lazy, .targets] + (if $v21 then [.targets_doing] else [] end)];
           [$variants[] as $v | $rows[] | [$v, .[0], $T] + (if $v21 then [.[1]] else [] end)]),
      (select($v21) | eq("shootdown_lazy: every lazy CPU slept in the idle loop on every point (lazy_idled = lazy)";
         [$e.results[]? | select(.values.lazy_idled != .params.lazy) | [.params.variant, .params.lazy, .values.lazy_idled]]; [])),
      eq("shootdown_lazy: latency, catchup, baseline sample counts";
         [ns($e; "latency"), ns($e; "catchup"), ns($e; "baseline")]; [[$S], [$S], [$B]])
    end),

  # ---- pti_double_invalidation ----
  (select($ids | index("pti_double_invalidation")) |
    if ($pcid | not) then skipped("pti_double_invalidation"; "^no PCID: CPUID.01H:ECX\\[17\\] = 0")
    elif $pcid_off then skipped("pti_double_invalidation"; "^PCID off: erratum invlpg_global_pcid .* on CPU [0-9a-f]{2}-[0-9a-f]{2}-[0-9a-f]{2}, .* microcode (0x[0-9a-f]+|unknown)")
    elif $global then skipped("pti_double_invalidation"; $kernel_only) else
    exp("pti_double_invalidation") as $e
    | ([1, 8] + (if $C > 8 and $C <= 512 then [$C] else [] end)) as $pages
    | ([["no_pti", 1]] + (if $invpcid then [["invlpg_invpcid", 2]] else [] end) + [["invlpg_deferred", 2]]) as $variants
    | ([["local", 1]] + (if $T >= 1 then [["shootdown_seq", $N], ["shootdown_conc", $N]] else [] end)) as $kinds
    # (from issue 20 the variants of a (kind, p) are measured together, primed once in both PCIDs)
    | measured("pti_double_invalidation"; false;
               if $v20 then [$kinds[] as $k | $pages[] as $p | 2 * $k[1] * $p + ([$variants[] | .[1] * $k[1] * $p * ($W + $S)] | add)] | sum
               else [$variants[] as $v | $kinds[] as $k | $pages[] as $p | $v[1] * $k[1] * $p * (1 + $W + $S)] | sum end),
      (select($v20) | order_varied("pti_double_invalidation"; $e; ["variant"]; ["kind", "pages"]; $S)),
      grid("pti_double_invalidation: \($variants | map(.[0]) | join(",")) x \($kinds | map(.[0]) | join(",")) x pages \($pages | join(","))";
           [$e.results[]?.params | [.variant, .kind, .pages]];
           [$variants[] as $v | $kinds[] as $k | $pages[] as $p | [$v[0], $k[0], $p]]),
      (select($v10 | not) | eq("pti_double_invalidation: latency, baseline sample counts; p50_per_page on local points";
         [ns($e; "latency"), ns($e; "baseline"), ([$e.results[]? | (.params.kind == "local") == (.values.p50_per_page != null)] | all)];
         [[$S], [$B], true])),
      (select($v10) | eq("pti_double_invalidation: latency, flush, return_to_user, baseline sample counts; p50_per_page on local points";
         [ns($e; "latency"), ns($e; "flush"), ns($e; "return_to_user"), ns($e; "baseline"), ([$e.results[]? | (.params.kind == "local") == (.values.p50_per_page != null)] | all)];
         [[$S], [$S], [$S], [$B], true])),
      (select($v10) | eq("pti_double_invalidation: remote_return_to_user on shootdown points only; cpus of each kind";
         [$e.results[]? | [.params.kind, .params.cpus, (.metrics.remote_return_to_user.n // null)]] | unique;
         [$kinds[] | [.[0], .[1], (if .[0] == "local" then null else $S end)]] | unique)),
      # issue 20 on: every point names the user working set its return to user refills (512 pages)
      (select($r.method.pti_return_to_user == "timed_user_working_set")
       | eq("pti_double_invalidation: the user working set of every point (512 pages)";
            [$e.results[]?.params.working_set] | unique; [512])),
      (select($v10) | eq("pti_double_invalidation: a note when the shootdown kinds need more CPUs";
         [$e.notes[]? | select(startswith("shootdown_seq and shootdown_conc not measured"))] | length;
         if $T >= 1 then 0 else 1 end))
    end),

  # ---- invlpgb_range ----
  (select($ids | index("invlpgb_range")) |
    (($invlpgb | not) and ($emu | index("invlpgb") != null)) as $emulated
    | if $global then skipped("invlpgb_range"; $kernel_only)
      elif ($invlpgb | not) and ($emulated | not) then skipped("invlpgb_range"; "8000_0008 EBX\\[3\\]")
      elif $N < 2 and $v10 then skipped("invlpgb_range"; "^needs at least 2 CPUs") else
    exp("invlpgb_range") as $e
    | (if $emulated then 8 else ($r.cpu.features.invlpgb_max_pages // 8) end) as $max
    | ($pti and $pcid and ($pcid_off | not)) as $pti_on
    # issue 20 on: INVLPGB's main form is Linux's (path linux: one whole-PCID
    # INVLPGB above the ceiling C), the range in chunks its alternative (path
    # chunked, all CPUs, range forms above C only); before, every range chunked
    | ($r.method.invlpgb_above_ceiling != null) as $ib20
    # issue 32 on: the busy_ws rows (1 page, every CPU: the IPI targets' and INVLPGB's
    # bystanders' loss; none with halted targets) and the nearest-first crossover summary
    | ($r.method.invlpgb_other_cpus != null) as $ib32
    | ($ib32 and $r.method.target_wait != "hlt") as $busy
    | (if $pti_on then 2 else 1 end) as $pc1
    | ([[1, 2, 4, 8, 16, 32, 64, 512][] | ["pages", ., .]] +
       (if $has2m then [[1, 2, 4][] | ["stride_2m", ., .]] else [] end) + [["pcid", 1, 1]]) as $forms
    # [form, pages, verified pages, CPUs]: every form on all N CPUs, then the
    # CPU sweep (core/exp/invlpgb.c): 1 and 8 pages on 2, 4, 8, ... < N CPUs
    | [range(1; 31) | pow(2; .) | select(. < $N)] as $sweep_cpus
    | ([$forms[] | . + [$N, null]] +
       (if $sweep then [$sweep_cpus[] as $c | [1, 8][] | ["pages", ., ., $c, null]] else [] end) +
       # issue 21: one page on 1 + 2^i CPUs of each class the BSP has, spread at the sweep's counts
       (if $v21 and pl_differ(0) then
          [classes[] as $cl | pl_size(0; $cl) as $n | select($n > 0) | pl_counts($n)[] | ["pages", 1, 1, . + 1, $cl]]
          + [select(pl_size(0; "spread") > 0) | ($sweep_cpus | [range(0; length) as $i | select($i < 3 or $i == length - 1) | .[$i]])[]
             | ["pages", 1, 1, ., "spread"]]
        else [] end)) as $pts
    # [method, path, form, pages, verified pages, CPUs, placement, PCIDs invalidated]
    | ([$pts[] | (["invlpgb", "linux"] + .), (["ipi", "linux"] + .),
                 (select($ib20 and .[0] != "pcid" and .[1] > $C and .[3] == $N and .[4] == null) | ["invlpgb", "chunked"] + .)]
       # under PTI both PCIDs are read, 2 MiB pages too from issue 32 (method.lfence marks it)
       | map(. + [if ($pti_on | not) or (.[2] == "stride_2m" and $r.method.lfence == null) then 1 else 2 end])
       | map(.[0:6] + [.[7], .[6]])) as $f
    # INVLPGBs of one invlpgb sample: one for the pcid form and Linux's path above C, else the chunks
    | def ib_ops($pt): if $pt[2] == "pcid" or ($ib20 and $pt[1] == "linux" and $pt[3] > $C) then 1 else ceil_div($pt[3]; $max) end;
      # (from issue 20 the points of a range, [form, pages, CPUs], are primed once together)
      measured("invlpgb_range"; $emulated;
               if $v20 then ([$f | group_by([.[2], .[3], .[5], .[7]])[] | .[0] | .[4] * .[6] * .[5]] | sum) +
                            ([$f[] | .[4] * .[6] * .[5] * ($W + $S)] | sum) +
                            # busy_ws rows: primed once, then each sample of each method verified
                            (if $busy then (1 + 2 * ($W + $S)) * $N * $pc1 else 0 end)
               else [$f[] | .[4] * .[6] * .[5] * (1 + $W + $S)] | sum end),
      (select($v20) | order_varied("invlpgb_range"; $e; ["method", "path"]; ["form", "pages", "cpus", "pti", "placement", "targets_doing"]; $S)),
      grid("invlpgb_range: invlpgb and ipi x \($forms | map("\(.[0]) \(.[1])") | join(", ")) on \($N) CPUs, and 1 and 8 pages on 2, 4, ... < \($N), pti \(if $pti_on then "on" else "off" end)\(if $ib20 then ", invlpgb chunked above the ceiling \($C)" else "" end)\(if $v21 then ", one page per placement" else "" end)";
           [$e.results[]?.params | select(.targets_doing == null) | [.method, .form, .pages, .cpus, .pti, .path, .placement]];
           [$f[] | [.[0], .[2], .[3], .[5], (if ($v10 | not) then null elif $pti_on then "on" else "off" end), (if $ib20 then .[1] else null end), .[7]]]),
      (select($ib32) | grid("invlpgb_range: busy_ws rows (1 page, every CPU: target_lost of the IPI targets, bystander_lost of INVLPGB's) unless targets halt";
           [$e.results[]? | select(.params.targets_doing != null) | [.params.method, .params.form, .params.pages, .params.cpus, .params.path, .params.targets_doing, (.metrics | keys)]];
           if $busy then [["invlpgb", "pages", 1, $N, "linux", "busy_ws", ["bystander_lost", "latency"]],
                          ["ipi", "pages", 1, $N, "linux", "busy_ws", ["latency", "target_lost"]]] else [] end)),
      (select($busy) | eq("invlpgb_range: busy_ws rows: S samples each, the IPI targets every other CPU, IB_BUSY_OPS INVLPGBs a window";
           [$e.results[]? | select(.params.targets_doing != null) | [.params.method, (.metrics | map(.n) | unique), .values.lost_targets, .values.invlpgb_per_window]] | sort;
           [["invlpgb", [$S], null, 8], ["ipi", [$S], $N - 1, null]])),
      (select($v21) | grid("invlpgb_range: a crossover summary (cpus_from where INVLPGB wins, cpus_max) per placement at one page\(if $ib32 then ", the nearest-first sweep's too" else "" end)";
           [$e.summary[]? | [.params.placement, .params.pages, .values.cpus_max]];
           [$f | map(select(.[7] != null and .[0] == "invlpgb")) | group_by(.[7])[] | [.[0][7], 1, (map(.[5]) | max)]]
           + (if $ib32 then [["nearest_first", 1, $N]] else [] end))),
      eq("invlpgb_range: latency, baseline sample counts"; [([$e.results[]? | select(.params.targets_doing == null)] | {results: .}) | ns(.; "latency"), ns(.; "baseline")]; [[$S], [$B]]),
      (if $emulated then
         ([$f[] | if .[0] == "invlpgb" then [.[0], .[2], .[3], .[5], .[1], .[7], ($W + $S) * ib_ops(.), $W + $S + $B]
                  else [.[0], .[2], .[3], .[5], .[1], .[7], 0, 0] end]
          # busy_ws rows: 8 INVLPGB+TLBSYNC a bystander window, no baseline
          + (if $busy then [["invlpgb", "pages", 1, $N, "linux", null, ($W + $S) * 8 * $pc1, ($W + $S) * 8],
                            ["ipi", "pages", 1, $N, "linux", null, 0, 0]] else [] end)) as $counts
         | grid("invlpgb_range: emulated INVLPGB and TLBSYNC of each point ((W+S) x the path's INVLPGBs: chunks of \($max) pages, or one above the ceiling on Linux's path; none on IPI points)";
                [$e.results[]? | [.params.method, .params.form, .params.pages, .params.cpus, (.params.path // "linux"), .params.placement, .values.emulated_invlpgb, .values.emulated_tlbsync]];
                $counts),
           # a planning pilot's emulated instructions are in the totals too: then at least the points'
           ([$counts[] | .[6]] | sum) as $ni | ([$counts[] | .[7]] | sum) as $nt
           | ([$e.notes[]? | select(startswith("emulated: ")) | capture("^emulated: (?<i>[0-9]+) INVLPGB, (?<t>[0-9]+) TLBSYNC handled after #UD; timings are those of the emulation, not of any CPU$") | [(.i | tonumber), (.t | tonumber)]]) as $got
           | if ($e.verification.pilot_checks // 0) > 0 then
               eq("invlpgb_range: the note's totals (the points' and the planning pilot's)";
                  [$got[] | [.[0] >= $ni, .[1] >= $nt]]; [[true, true]])
             else
               eq("invlpgb_range: the note's totals"; $got; [[$ni, $nt]])
             end
       else
         eq("invlpgb_range: no emulated counts on native points";
            [$e.results[]? | (.values // {}) | (.emulated_invlpgb, .emulated_tlbsync)] | unique; if ($e.results | length) > 0 then [null] else [] end)
       end)
    end),

  # ---- flush_ceiling ----
  (select($ids | index("flush_ceiling")) |
    if $global then skipped("flush_ceiling"; $kernel_only) else
    exp("flush_ceiling") as $e
    # issue 20 on: targets refill after acknowledging (metrics target_refill, with_refill on
    # shootdown points, whose crossovers are on with_refill), every working set is contiguous
    # (working_set_form) and the one of 512 pages also scattered_cold
    | ($r.method.flush_ceiling_refill != null) as $fc20
    # issue 32 on: the initiator refills too, shootdown curves on `work` (critical_path beside
    # it), at least 2 warm-up iterations, and points `added` where a planned share had room
    | ($r.method.flush_ceiling_metric != null) as $fc32
    | ([10, ([50, (($S / 20) | floor)] | min)] | max) as $S5
    | (($W / 20) | floor | if $fc32 then [., 2] | max else . end) as $W5
    | (if $prof == "quick" then [1, 16, 32, 33, 34, 64, 512]
       else [1, 2, 4, 8, 12, 16, 20, 24, 28, 30, 32, 33, 34, 36, 40, 48, 64, 96, 128, 256, 384, 512] end) as $pages
    | ($r.cpu.l2_tlb.entries_4k // 0) as $l2
    | ([64, 512] + (if $prof != "quick" and $l2 > 0 then [[$l2, 4096] | min] else [] end) | unique) as $ws
    | ([0] + (if $T >= 1 then [1] else [] end) + (if $T > 1 then [$T] else [] end)) as $ks
    | (["invlpg", "full_cr3"] + (if $invpcid then ["full_invpcid"] else [] end)) as $modes
    # [form, working set] of every curve
    | (if $fc20 then [$ws[] | ["contiguous", .]] + [["scattered_cold", 512]] else [$ws[] | [null, .]] end) as $sets
    | [$e.results[]? | select(.values.added != null and .params.mode == "invlpg") | .params] as $added
    | measured("flush_ceiling"; false;
               ([$ks[] as $k | $sets[] | $pages[] as $p | ($k + 1) * $p * (1 + ($modes | length) * ($W5 + $S5))]
                + [$added[] | (.targets + 1) * .pages * (1 + ($modes | length) * ($W5 + $S5))]) | sum),
      grid("flush_ceiling: kinds \($ks | join(",")) x (form, working set) \($sets | map(map(. // "-" | tostring) | join(" ")) | join(",")) x pages x \($modes | join(","))";
           [$e.results[]? | select(.values.added == null) | .params | [.kind, .targets, .working_set, .working_set_form, .pages, .mode]];
           [$ks[] as $k | $sets[] as [$f, $w] | $pages[] as $p | $modes[] as $m | [(if $k == 0 then "local" else "shootdown" end), $k, $w, $f, $p, $m]]),
      (select($v20) | order_varied("flush_ceiling"; $e; ["mode"]; ["kind", "targets", "working_set", "working_set_form", "pages"]; $S5)),
      eq("flush_ceiling: latency of \($S5) samples, p25 <= p50 <= p75 on every point";
         [ns($e; "latency"), ([$e.results[]? | .values.p25 <= .metrics.latency.p50 and .metrics.latency.p50 <= .values.p75] | all)]; [[$S5], true]),
      (select($fc32) | eq("flush_ceiling: target_refill, initiator_refill, work and critical_path of \($S5) samples on shootdown points only, work's p25 <= p50 <= p75";
         [$e.results[]? | [.params.kind, .metrics.target_refill.n, .metrics.initiator_refill.n, .metrics.work.n, .metrics.critical_path.n,
                           (.values.work_p25 == null or (.values.work_p25 <= .metrics.work.p50 and .metrics.work.p50 <= .values.work_p75))]] | unique;
         [$ks[] | if . == 0 then ["local", null, null, null, null, true] else ["shootdown", $S5, $S5, $S5, $S5, true] end] | unique)),
      (select($fc20 and ($fc32 | not)) | eq("flush_ceiling: target_refill and with_refill of \($S5) samples on shootdown points only, with_refill's p25 <= p50 <= p75";
         [$e.results[]? | [.params.kind, .metrics.target_refill.n, .metrics.with_refill.n,
                           (.values.with_refill_p25 == null or (.values.with_refill_p25 <= .metrics.with_refill.p50 and .metrics.with_refill.p50 <= .values.with_refill_p75))]] | unique;
         [$ks[] | if . == 0 then ["local", null, null, true] else ["shootdown", $S5, $S5, true] end] | unique)),
      grid("flush_ceiling: a crossover summary per kind, working-set form, working set and full-flush mode";
           [$e.summary[]?.params | [.targets, .working_set_form, .working_set, .full]];
           [$ks[] as $k | $sets[] as [$f, $w] | $modes[1:][] as $m | [$k, $f, $w, $m]]),
      # p* is the smallest page count from which every full-flush median is below INVLPG's
      # (of latency locally; of with_refill, the initiator's wait plus the slowest target's
      # refill, on shootdown curves from issue 20 on)
      eq("flush_ceiling: every summary's p* recomputed from its points";
         [$e.summary[]? | .params as $q | (.values.p_star // null)];
         [$e.summary[]? | .params as $q
          | (if $fc32 and $q.kind == "shootdown" then "work" elif $fc20 and $q.kind == "shootdown" then "with_refill" else "latency" end) as $metric
          | [$e.results[]? | select(.params.targets == $q.targets and .params.working_set == $q.working_set and .params.working_set_form == $q.working_set_form)] as $pts
          # from issue 32 the counts it measured, those added included; none below 3
          | (if $fc32 then [$pts[] | select(.params.mode == "invlpg") | .params.pages] | sort else $pages end) as $cp
          | if $fc32 and ($cp | length) < 3 then null else
            [$cp[] as $p | ([$pts[] | select(.params.pages == $p and .params.mode == "invlpg")][0].metrics[$metric].p50) as $a
             | ([$pts[] | select(.params.pages == $p and .params.mode == $q.full)][0].metrics[$metric].p50) as $b
             | {p: $p, cheaper: ($b < $a)}] as $c
          | ([range(0; $c | length) | select(. as $i | [$c[$i:][] | .cheaper] | all)] | first // null) as $i
          | if $i == null then null else $c[$i].p end end]),
      (select($fc32) | eq("flush_ceiling: every summary says how many page counts it rests on";
         [$e.summary[]? | .params as $q | .values.pages_measured];
         [$e.summary[]? | .params as $q
          | [$e.results[]? | select(.params.targets == $q.targets and .params.working_set == $q.working_set and .params.working_set_form == $q.working_set_form and .params.mode == "invlpg")] | length]))
    end),

  # ---- shootdown_contention ----
  (select($ids | index("shootdown_contention")) |
    if $N < 2 then skipped("shootdown_contention"; "^needs at least 2 CPUs") else
    exp("shootdown_contention") as $e
    | ([10, (($S / 10) | floor)] | max) as $S2
    | ([$W, 3] | min) as $W2
    | (($invlpgb | not) and ($emu | index("invlpgb") != null) and ($global | not)) as $emulated
    | (["ipi"] + (if ($invlpgb or $emulated) and ($global | not) then ["invlpgb"] else [] end)) as $methods
    | ([1] + (if $C > 1 then [$C] else [] end)) as $pages
    | [["all", "groups"][] as $mode | $methods[] as $meth | $pages[] as $p
       | m_series(if $mode == "all" then $N else ($N / 2 | floor) end; (512 / $p | floor))[]
       | [$mode, $meth, $p, ., $N, null]] as $grid_points
    # issue 21: columns (all, ipi, one page) on the BSP and one placement's CPUs (spread: half
    # the others), m = 1, 2 and all of them
    | (if $v21 and pl_differ(0) then
         [(classes[] | [., pl_size(0; .)]), ["spread", ((pl_size(0; "spread")) / 2 | floor)]
          | select(.[1] > 0) | (.[1] + 1) as $n | .[0] as $pl
          | pl_counts($n) | [.[0:2][], (if length > 2 then .[-1] else empty end)] | unique[]
          | ["all", "ipi", 1, ., $n, $pl]]
       else [] end) as $placed
    | ($grid_points + $placed) as $points
    # issue 32: each steady point runs `windows` windows (each ends with its check), and the
    # latency points carry no round rate; reports before it: one window and a round rate
    | ([$e.results[]? | select(.params.measure == "steady") | .values.windows][0]) as $win
    | ($win != null) as $v32w
    | ($win // 1) as $windows
    | def per_init($m): ([2, ceil_div($S2; $m)] | max);
      # the reads of a point's latency part (priming, then every round) and of its steady part
      # ($pt[4]: the CPUs of the point, all of them or the BSP and a placement's)
      def lat_checks($pt): $pt[2] as $p | $pt[3] as $m | $pt[4] as $n
        | if $pt[0] == "all" then $p * $n + ($m - 1) * $p * ($n - 1) + $m * ($W2 + per_init($m)) * $p * $n
          else $p * $n + ($W2 + per_init($m)) * $p * $n end;
      def steady_checks($pt): $windows * (if $pt[0] == "all" then $pt[3] * $pt[2] * $pt[4] else $pt[2] * $pt[4] end);
      def pt($e; $pt; $measure): [$e.results[]? | select(.params | [.mode, .method, .pages, .initiators, .measure, .placement] == [$pt[0], $pt[1], $pt[2], $pt[3], $measure, $pt[5]])][0];
      measured("shootdown_contention"; $emulated;
               [$points[] | lat_checks(.) + steady_checks(.)] | sum),
      grid("shootdown_contention: all and groups x \($methods | join(",")) x pages \($pages | join(",")) x m initiators x measure latency, steady";
           [$e.results[]?.params | [.mode, .method, .pages, .initiators, .cpus, .measure, .placement]];
           [$points[] | (.[0:5] + ["latency", .[5]]), (.[0:5] + ["steady", .[5]])]),
      grid("shootdown_contention: latency points: m x ceil(\($S2)/m) samples (at least 2 each), a rate of the rounds, their exact checks\(if $emulated then ", emulated INVLPGBs m (W'+S') ceil(p/8) on invlpgb points" else "" end)";
           [$points[] | pt($e; .; "latency") as $q
            | [.[0], .[1], .[2], .[3], $q.metrics.latency.n,
               (if $v32w then $q.values.round_shootdowns_per_s == null else $q.values.round_shootdowns_per_s > 0 end), $q.values.checks,
               $q.values.emulated_invlpgb, ($q.values.shootdowns_per_s == null)]];
           [$points[] | [.[0], .[1], .[2], .[3], .[3] * per_init(.[3]), true, lat_checks(.),
                         (if $emulated and .[1] == "invlpgb" then .[3] * ($W2 + per_init(.[3])) * ceil_div(.[2]; 8) else null end), true]]),
      grid("shootdown_contention: steady points: no metric, shootdowns and a rate in a window, the final check of every initiator's pages\(if $emulated then ", emulated INVLPGBs at least ceil(p/8) per shootdown on invlpgb points" else "" end)";
           [$points[] | pt($e; .; "steady") as $q | (if .[2] > 8 then ((.[2] + 7) / 8 | floor) else 1 end) as $chunks
            | [.[0], .[1], .[2], .[3], ($q.metrics // {} | length), ($q.values.shootdowns >= 1), ($q.values.shootdowns_per_s > 0),
               ($q.values.window_ms > 0), $q.values.checks,
               (if $q.values.emulated_invlpgb == null then null else ($q.values.emulated_invlpgb >= $q.values.shootdowns * $chunks) end),
               # issue 32: the windows' spread around their median, and the rate without the remaps above it
               (if $v32w then ($q.values.windows == 3 and $q.values.shootdowns_per_s_min <= $q.values.shootdowns_per_s
                               and $q.values.shootdowns_per_s <= $q.values.shootdowns_per_s_max
                               and $q.values.shootdowns_per_s_no_remap >= $q.values.shootdowns_per_s) else null end)]];
           [$points[] | [.[0], .[1], .[2], .[3], 0, true, true, true, steady_checks(.),
                         (if $emulated and .[1] == "invlpgb" then true else null end), (if $v32w then true else null end)]]),
      eq("shootdown_contention: its notes say how it sampled and how it checked";
         [$e.notes[]? | select(test("samples per point|^checks outside every timed window"))];
         ["\($S2) samples per point, ceil(\($S2) / m) (at least 2) per initiator, after \($W2) warm-up each",
          "checks outside every timed window: each round's shootdowns after all m windows closed (targets, then the initiator); steady points: each initiator's pages once the loop stopped"])
    end),

  # ---- issue 32: the class mix of every point of the other shootdown experiments, from CPU 0:
  # nearest first the k nearest, a class placement all of it, spread adding up ----
  ([["shootdown_lazy", "targets"], ["shootdown_contention", "cpus"], ["invlpgb_range", "cpus"]][] as [$id, $key]
   | exp($id) as $e | select($e != null and $e.results[0]?.class_mix != null)
   | eq("\($id): every point's class_mix, seen from CPU 0";
        [$e.results[] | .params as $p | (if $key == "targets" then $p.targets else $p.cpus - 1 end) as $n
         | .class_mix
         | if $p.placement == null then . == near_mix(0; $n)
           elif $p.placement == "spread" then ([.[]] | add) == $n
           else . == {($p.placement): $n} end] | unique; [true])),

  # ---- ipi_target_state ----
  (select($ids | index("ipi_target_state")) |
    if $N < 2 then skipped("ipi_target_state"; "^needs at least 2 CPUs") else
    exp("ipi_target_state") as $e
    | ([10, (($S / 10) | floor)] | max) as $S2
    | ((($r.cpu.cpuid["1.ecx"] // "0x0") | ltrimstr("0x") | explode | map(if . >= 97 then . - 87 elif . >= 65 then . - 55 else . - 48 end) | last) as $lastnib
       | (($lastnib / 8 | floor) % 2) == 1) as $monitor
    | [$e.results[]?.params.state] as $states
    | eq("ipi_target_state: status, emulated, partial, verification not applicable";
         [$e.status, $e.emulated, $e.partial, $e.verification.applicable, $e.verification.checks];
         ["SUCCESS", false, false, false, 0]),
      # ring3_loop on the machine (a loop at CPL 3); the host model has no CPL 3 and says so in a
      # note; reports before it have neither (tests/qemu/ring3.sh requires the row itself)
      ([$e.notes[]? | select(startswith("ring3_loop"))] | length > 0) as $vring3
      | ($vring3 and ($r.simulated != true) and ($e.notes | any(startswith("ring3_loop not measured")) | not)) as $ring3
      | eq("ipi_target_state: pause, busy, hlt, irqoff 1/10/100 us, \(if $ring3 then "ring3_loop, " else "" end)and MWAIT \(if $monitor then "C1 at least" else "absent (CPUID.1:ECX[3] = 0)" end)";
         [$states[] | select(startswith("mwait_") or startswith("ioport_") | not)] + [if $monitor then ($states | index("mwait_00") != null) else ([$states[] | select(startswith("mwait_"))] | length) end];
         ["pause", "busy", "hlt", "irqoff_1us", "irqoff_10us", "irqoff_100us"] + (if $ring3 then ["ring3_loop"] else [] end) + [(if $monitor then true else 0 end)]),
      (select($vring3) | eq("ipi_target_state: on the machine ring3_loop is measured (a note says why not only on the host model)";
         [$r.simulated != true, ([$states[] | select(. == "ring3_loop")] | length)];
         [$r.simulated != true, (if $r.simulated != true then 1 else 0 end)])),
      eq("ipi_target_state: ring3_loop labelled ring3_loop, every ping (warm-up too) interrupting CPL 3, no target_lost";
         [$e.results[]? | select(.params.state == "ring3_loop") | [.params.target_context, .values.interrupted_cpl3, .values.pings, .metrics.target_lost]];
         [$e.results[]? | select(.params.state == "ring3_loop") | ["ring3_loop", $S2 + 2, $S2 + 2, null]]),
      eq("ipi_target_state: MWAIT states named by their hint, and a note with the CPUID evidence";
         [([$states[] | select(startswith("mwait_")) | test("^mwait_[0-9a-f]{2}$")] | all),
          ([$e.notes[]? | select(test("^MWAIT"))] | length > 0)]; [true, true]),
      eq("ipi_target_state: roundtrip and target_lost of \($S2) samples each"; [ns($e; "roundtrip"), ([$e.results[]? | select(.params.state != "ring3_loop") | .metrics.target_lost.n] | unique)]; [[$S2], [$S2]]),
      # (issue 21: settle per state, SMT siblings counted, residency evidence on idle states)
      (select($v21) |
        eq("ipi_target_state: every point has settle_us >= 10 and its siblings counted; idle states (hlt, mwait_*, ioport_*) a residency verdict with its reason and settle source, the others none";
           [$e.results[]? | (.params.state | test("^(hlt|mwait_|ioport_)")) as $idle
            | select((.values.settle_us // 0) < 10 or .values.siblings == null or .values.siblings_in_state == null
                     or .values.siblings_in_state > .values.siblings
                     or ($idle and (((.params.residency // "") | test("^(reached|partly_reached|demoted|not_reached|unverified)$") | not)
                                    or (.params.residency_reason // "") == ""
                                    or ((.params.settle_source // "") | test("^(linux_intel_idle|acpi_fadt_p_lvl2_lat|default)$") | not)))
                     or (($idle | not) and .params.residency != null))
            | .params.state]; []),
        (select($r.cpu.hypervisor == "TCGTCGTCGTCG") |
          eq("ipi_target_state: under QEMU TCG no idle state is proven (its CPUs have no residency MSR)";
             [$e.results[]? | select(.params.residency != null and .params.residency != "unverified") | .params.state]; [])))
    end),

  # ---- percentiles only where n supports them (core/lib/stats.h) ----
  (select($v20) |
    [$r.experiments[]? | (.results, .summary)[]? | .metrics[]?] as $ms
    | eq("no p90 from fewer than 10 samples, no p99 from fewer than 100; both from there on";
         [$ms[] | select((.p90 != null) != (.n >= 10) or (.p99 != null) != (.n >= 100)) | .n] | unique; [])),
  # ---- planned experiments: an exact shape needs the whole grid ----
  # (every profile is planned; on the machines the tests use, each runs as configured)
  ([$r.experiments[]? | select(.id as $id | $ids | index($id)) | select(.plan != null)] as $planned
   | eq("every planned experiment ran its grid as configured (nothing reduced or re-planned, no time box)";
        [$planned[] | select(((.plan.reduced // []) | length) > 0 or (.plan.replans // 0) > 0 or (.plan.measured == false)) | .id]
        + [$r.experiments[]? | select(.id as $id | $ids | index($id)) | select([.notes[]? | startswith("time box: ")] | any) | .id];
        [])),

  # ---- conditions of every experiment that measured ----
  ([$r.experiments[]? | select(.status != "SKIP")] as $measured
   | eq("conditions recorded on every experiment that measured (SMIs, clock, boost, SMT, target_wait)";
        [$measured[] | [.id, (.conditions | type),
                        (.conditions.smi.source // null | IN("msr_0x34", "pmc_ls_smi_rx", "hiccup_detector")),
                        ((.conditions.smi.source | IN("msr_0x34", "pmc_ls_smi_rx")) or (.conditions.smi.absent_reason != null)),
                        # the method by vendor and family (the PMC from family 17h), never trusted under a hypervisor
                        (.conditions.smi.method == (if $r.cpu.vendor == "GenuineIntel" then "msr_0x34"
                                                    elif ($r.cpu.vendor | IN("AuthenticAMD", "HygonGenuine")) and $r.cpu.family >= 23 then "pmc_ls_smi_rx"
                                                    else null end)),
                        (($r.cpu.hypervisor == null) or (.conditions.smi.source != "pmc_ls_smi_rx")),
                        # counted: the total is the sum over the CPUs counted; not: the hiccup detector ran
                        (if (.conditions.smi.source | IN("msr_0x34", "pmc_ls_smi_rx"))
                         then ([.conditions.smi.per_cpu[] | select(. != null)] | [add, length]) == [.conditions.smi.count, .conditions.smi.cpus]
                         else .conditions.smi.hiccup != null end),
                        ((.conditions.clock.aperf_mperf // false) == (.conditions.clock.roles != null)),
                        ((.conditions.clock.aperf_mperf // false) == (.conditions.clock.effective_mhz != null)),
                        (.conditions.clock.boost // null | IN("enabled", "disabled", "unknown")),
                        (.conditions.smt // null | IN("active", "off")),
                        (.conditions.target_wait == $r.method.target_wait)]];
        [$measured[] | [.id, "object", true, true, true, true, true, true, true, true, true, true]]));
