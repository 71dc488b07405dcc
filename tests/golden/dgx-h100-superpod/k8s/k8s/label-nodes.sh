#!/bin/sh
# rackc: topology labels (NVIDIA topograph 1.0 keys) of dgx-h100-superpod.rack
# Idempotent: labels are overwritten with the same values.  KUBECTL overrides the
# command (e.g. KUBECTL="kubectl --context prod").
set -eu
kubectl=${KUBECTL:-kubectl}
$kubectl label --overwrite node dgx-0 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-1 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-2 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-3 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-4 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-5 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-6 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-7 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-8 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-9 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-10 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-11 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-12 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-13 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-14 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-15 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-16 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-17 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-18 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-19 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-20 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-21 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-22 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-23 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-24 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-25 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-26 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-27 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-28 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-29 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-30 \
	fabric.topograph.run/tier-0=compute-leaf-0 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-32 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-33 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-34 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-35 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-36 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-37 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-38 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-39 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-40 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-41 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-42 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-43 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-44 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-45 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-46 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-47 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-48 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-49 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-50 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-51 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-52 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-53 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-54 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-55 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-56 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-57 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-58 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-59 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-60 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-61 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-62 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-63 \
	fabric.topograph.run/tier-0=compute-leaf-8 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-64 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-65 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-66 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-67 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-68 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-69 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-70 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-71 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-72 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-73 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-74 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-75 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-76 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-77 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-78 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-79 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-80 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-81 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-82 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-83 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-84 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-85 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-86 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-87 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-88 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-89 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-90 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-91 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-92 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-93 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-94 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-95 \
	fabric.topograph.run/tier-0=compute-leaf-16 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-96 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-97 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-98 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-99 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-100 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-101 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-102 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-103 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-104 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-105 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-106 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-107 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-108 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-109 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-110 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-111 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-112 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-113 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-114 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-115 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-116 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-117 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-118 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-119 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-120 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-121 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-122 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-123 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-124 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-125 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-126 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
$kubectl label --overwrite node dgx-127 \
	fabric.topograph.run/tier-0=compute-leaf-24 \
	fabric.topograph.run/tier-1=compute-spine-0
