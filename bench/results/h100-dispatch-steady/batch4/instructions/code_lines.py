# Distinct 64-byte code lines of each object executed on (nearly) every
# launch, from a callgrind --dump-instr=yes profile of N launches.
import re, sys, collections
n = int(sys.argv[2]); obs = {}; cur_ob = None; addr = 0; after_call = False
hot = collections.defaultdict(collections.Counter)
for l in open(sys.argv[1]):
    l = l.rstrip('\n')
    m = re.match(r'^(c?ob)=\((\d+)\)(?: (.*))?$', l)
    if m:
        if m.group(3): obs[m.group(2)] = m.group(3)
        if m.group(1) == 'ob': cur_ob = obs.get(m.group(2))
        continue
    if l.startswith('calls='): after_call = True; continue
    if re.match(r'^(fl|fi|fe|fn|cfn|cfi|cfl|cob)=', l) or not l: continue
    m = re.match(r'^(0x[0-9a-fA-F]+|[+-]\d+|\*)\s+(?:0x[0-9a-fA-F]+|[+-]?\d+|\*)\s+(\d+)', l)
    if not m: continue
    p = m.group(1)
    if p.startswith('0x'): addr = int(p, 16)
    elif p[0] in '+-': addr += int(p)
    if after_call: after_call = False; continue
    hot[cur_ob][addr // 64] = max(hot[cur_ob][addr // 64], int(m.group(2)))
for ob, c in sorted(hot.items()):
    print(sum(1 for v in c.values() if v >= n * 0.9), ob)
