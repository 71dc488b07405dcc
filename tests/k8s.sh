#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The k8s back end against its consumers' rules.  For every example with
# compute fabrics listed below, `rackc -O k8s,slurm`:
#
#   NAME/schema    tests/k8s_check.py: the YAML loads; the Kueue Topology
#                  and the Volcano HyperNodes validate against the CRDs of
#                  Kueue v0.19.2 and Volcano v1.15.1 (tests/k8s/, source
#                  and commit in their first lines); names and labels are
#                  valid Kubernetes names; the script sets the YAML's
#                  labels; and the labels and HyperNodes are the switches
#                  and blocks of slurm/topology.conf and slurm/block.conf
#   NAME/shellcheck  label-nodes.sh is shellcheck clean (when installed)
#   NAME/kubectl   kubectl parses every file offline (label --local
#                  --dry-run=client), and `kubectl apply --dry-run=client`
#                  accepts them where a cluster answers (skipped otherwise)
#
# planted/*  the checker rejects a changed label value, an unknown field
#            in the Kueue Topology and a HyperNode member of no tier below
# k8s-*.rack  tests/deploy designs: exit status and messages (a host that
#             is no Kubernetes node name, two that fold to one)
. "$(dirname "$0")/lib.sh"

py_with yaml
if [ -z "$py" ]; then
	skip k8s "python3 with the yaml module not installed"
	finish
fi
cd "$top_srcdir" || exit 99

for name in gb200-nvl72 gb300-nvl72 dgx-h100-superpod dgx-b200-2su \
	mixed-hall mi300x-roce; do
	o=$tmp/$name
	if ! rk_run "$tmp/$name" -o "$o" -O k8s,slurm "examples/$name.rack" ||
		[ "$rc" -ne 0 ]; then
		fail "$name/run" "exit status $rc $rk_problem"
		show "$tmp/$name.err"
		continue
	fi
	if "$py" tests/k8s_check.py "$o" tests/k8s >"$tmp/$name.chk" 2>&1; then
		pass "$name/schema"
	else
		fail "$name/schema"
		show "$tmp/$name.chk"
	fi
	if ! command -v shellcheck >/dev/null 2>&1; then
		skip "$name/shellcheck" "shellcheck not installed"
	elif shellcheck "$o/k8s/label-nodes.sh" >"$tmp/$name.sc" 2>&1; then
		pass "$name/shellcheck"
	else
		fail "$name/shellcheck"
		show "$tmp/$name.sc"
	fi
	if ! command -v kubectl >/dev/null 2>&1; then
		skip "$name/kubectl" "kubectl not installed"
		continue
	fi
	kok=yes
	for f in "$o"/k8s/*.yaml; do
		if ! kubectl label --local --dry-run=client -f "$f" \
			rackc-test=1 -o name >"$tmp/$name.kc" 2>&1; then
			kok=no
			show "$tmp/$name.kc"
		fi
	done
	if [ "$kok" = yes ]; then
		pass "$name/kubectl"
	else
		fail "$name/kubectl" "kubectl cannot read the files"
	fi
	if kubectl version --request-timeout=2s >/dev/null 2>&1; then
		if kubectl apply --dry-run=client -f "$o/k8s" \
			>"$tmp/$name.ka" 2>&1; then
			pass "$name/kubectl-apply"
		else
			fail "$name/kubectl-apply"
			show "$tmp/$name.ka"
		fi
	else
		skip "$name/kubectl-apply" "no cluster answers kubectl"
	fi
done

# planted faults: the checker must reject each
o=$tmp/gb200-nvl72
if [ -d "$o/k8s" ]; then
	for plant in label kueue volcano; do
		p=$tmp/plant-$plant
		cp -R "$o" "$p"
		case $plant in
		label)
			sed '0,/tier-0: "leaf-0"/s//tier-0: "leaf-1"/' \
				"$o/k8s/node-labels.yaml" >"$p/k8s/node-labels.yaml"
			;;
		kueue)
			sed 's/^  levels:/  colour: "red"\n  levels:/' \
				"$o/k8s/kueue-topology.yaml" >"$p/k8s/kueue-topology.yaml"
			;;
		volcano)
			sed 's/^  tier: 2/  tier: 1/' \
				"$o/k8s/volcano-hypernodes.yaml" >"$p/k8s/volcano-hypernodes.yaml"
			;;
		esac
		if cmp -s "$o/k8s/node-labels.yaml" "$p/k8s/node-labels.yaml" &&
			cmp -s "$o/k8s/kueue-topology.yaml" "$p/k8s/kueue-topology.yaml" &&
			cmp -s "$o/k8s/volcano-hypernodes.yaml" "$p/k8s/volcano-hypernodes.yaml"; then
			fail "planted/$plant" "nothing planted"
		elif "$py" tests/k8s_check.py "$p" tests/k8s >"$p.chk" 2>&1; then
			fail "planted/$plant" "the checker accepts it"
		else
			pass "planted/$plant"
		fi
	done
fi

# errors: tests/deploy/k8s-*.rack against tests/golden/deploy/NAME/k8s*
. tests/golden_designs.sh
for d in tests/deploy/k8s-*.rack; do
	design_golden "$d" k8s k8s || :
done
finish
