#!/bin/sh
# rackc: topology labels (NVIDIA topograph 1.0 keys) of dgx-b300-ethernet.rack
# Idempotent: labels are overwritten with the same values.  KUBECTL overrides the
# command (e.g. KUBECTL="kubectl --context prod").
set -eu
kubectl=${KUBECTL:-kubectl}
$kubectl label --overwrite node dgx-0 \
	fabric.topograph.run/tier-0=leaf-0 \
	fabric.topograph.run/tier-1=spine-0
$kubectl label --overwrite node dgx-1 \
	fabric.topograph.run/tier-0=leaf-0 \
	fabric.topograph.run/tier-1=spine-0
$kubectl label --overwrite node dgx-2 \
	fabric.topograph.run/tier-0=leaf-0 \
	fabric.topograph.run/tier-1=spine-0
$kubectl label --overwrite node dgx-3 \
	fabric.topograph.run/tier-0=leaf-0 \
	fabric.topograph.run/tier-1=spine-0
$kubectl label --overwrite node dgx-4 \
	fabric.topograph.run/tier-0=leaf-0 \
	fabric.topograph.run/tier-1=spine-0
$kubectl label --overwrite node dgx-5 \
	fabric.topograph.run/tier-0=leaf-0 \
	fabric.topograph.run/tier-1=spine-0
$kubectl label --overwrite node dgx-6 \
	fabric.topograph.run/tier-0=leaf-0 \
	fabric.topograph.run/tier-1=spine-0
$kubectl label --overwrite node dgx-7 \
	fabric.topograph.run/tier-0=leaf-0 \
	fabric.topograph.run/tier-1=spine-0
$kubectl label --overwrite node dgx-8 \
	fabric.topograph.run/tier-0=leaf-0 \
	fabric.topograph.run/tier-1=spine-0
$kubectl label --overwrite node dgx-9 \
	fabric.topograph.run/tier-0=leaf-0 \
	fabric.topograph.run/tier-1=spine-0
$kubectl label --overwrite node dgx-10 \
	fabric.topograph.run/tier-0=leaf-0 \
	fabric.topograph.run/tier-1=spine-0
$kubectl label --overwrite node dgx-11 \
	fabric.topograph.run/tier-0=leaf-0 \
	fabric.topograph.run/tier-1=spine-0
$kubectl label --overwrite node dgx-12 \
	fabric.topograph.run/tier-0=leaf-0 \
	fabric.topograph.run/tier-1=spine-0
$kubectl label --overwrite node dgx-13 \
	fabric.topograph.run/tier-0=leaf-0 \
	fabric.topograph.run/tier-1=spine-0
$kubectl label --overwrite node dgx-14 \
	fabric.topograph.run/tier-0=leaf-0 \
	fabric.topograph.run/tier-1=spine-0
$kubectl label --overwrite node dgx-15 \
	fabric.topograph.run/tier-0=leaf-0 \
	fabric.topograph.run/tier-1=spine-0
