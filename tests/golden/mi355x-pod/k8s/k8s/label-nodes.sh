#!/bin/sh
# rackc: topology labels (NVIDIA topograph 1.0 keys) of mi355x-pod.rack
# Idempotent: labels are overwritten with the same values.  KUBECTL overrides the
# command (e.g. KUBECTL="kubectl --context prod").
set -eu
kubectl=${KUBECTL:-kubectl}
$kubectl label --overwrite node mi-0 \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node mi-1 \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node mi-2 \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node mi-3 \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node mi-4 \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node mi-5 \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node mi-6 \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node mi-7 \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node mi-8 \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node mi-9 \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node mi-10 \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node mi-11 \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node mi-12 \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node mi-13 \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node mi-14 \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node mi-15 \
	fabric.topograph.run/tier-0=leaf-0
