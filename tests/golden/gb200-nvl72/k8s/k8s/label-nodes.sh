#!/bin/sh
# rackc: topology labels (NVIDIA topograph 1.0 keys) of gb200-nvl72.rack
# Idempotent: labels are overwritten with the same values.  KUBECTL overrides the
# command (e.g. KUBECTL="kubectl --context prod").
set -eu
kubectl=${KUBECTL:-kubectl}
$kubectl label --overwrite node dc-r-nvl72-tray-0 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-1 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-2 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-3 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-4 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-5 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-6 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-7 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-8 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-9 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-10 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-11 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-12 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-13 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-14 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-15 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-16 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
$kubectl label --overwrite node dc-r-nvl72-tray-17 \
	accelerator.topograph.run/domain=nvl \
	fabric.topograph.run/tier-0=leaf-0
