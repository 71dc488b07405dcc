#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the device-type YAML files of `rackc -O netbox` against the NetBox
device-type library (netbox-community/devicetype-library): its JSON schema
(tests/netbox-devicetype-schema/, README there names the commits) and the
conventions its own tests apply that the schema cannot (read from its
tests/definitions_test.py and tests/device_types.py):

* the file ends with a newline and holds no empty string;
* the slug starts with the manufacturer's slug and ends with the model's
  (or the part number's), slugified by the library's replacements;
* the file name (without .yaml/.yml) is the model's slug, the part
  number's slug, or the part number;
* no two components of one kind share a name;
* the type has power ports (the library's power rule; a type without
  them must say so in its opening comment: a catalog gap, not hidden).

Usage: netbox_devicetypes.py SCHEMA-DIR OUT-DIR...  (each OUT-DIR holds
netbox/device-types/).  Prints "PASS|FAIL<TAB>case<TAB>detail" lines.
"""
import decimal
import glob
import json
import os
import sys

import jsonschema
import yaml

COMPONENTS = ("console-ports", "console-server-ports", "power-ports",
              "power-outlets", "interfaces", "front-ports", "rear-ports",
              "device-bays", "module-bays")


def rep(s, pairs):
    for a, b in pairs:
        s = s.replace(a, b)
    return s


def slug_manufacturer(m):
    return rep(m.casefold(), [(" ", "-"), ("sfp+", "sfpp"), ("poe+", "poep"),
                              ("-+", "-plus-"), ("+", "-plus"), ("_", "-"),
                              ("!", ""), ("/", "-"), (",", ""), ("'", ""),
                              ("*", "-"), ("&", "and")])


def slug_model(m, part=False):
    pairs = [(" ", "-")]
    if not part:
        pairs += [("sfp+", "sfpp"), ("poe+", "poep")]
    pairs += [("-+", "-plus"), ("+", "-plus-"), ("_", "-"), ("&", "-and-"),
              ("!", ""), ("/", "-"), (",", ""), ("'", ""), ("*", "-")]
    s = rep(m.casefold(), pairs)
    return s[:-1] if s.endswith("-") else s


class DecimalLoader(yaml.SafeLoader):
    """Numbers with a point as Decimal, as the library's own loader reads
    them (so 130.45 is a multiple of 0.01)."""


DecimalLoader.add_constructor(
    "tag:yaml.org,2002:float",
    lambda loader, node: decimal.Decimal(loader.construct_scalar(node)))


def validator(schema_dir):
    schemas = {}
    for f in glob.glob(os.path.join(schema_dir, "*.json")):
        with open(f) as fh:
            s = json.load(fh, parse_float=decimal.Decimal)
        schemas[s["$id"]] = s
    top = schemas["urn:devicetype-library:device-type"]
    try:  # jsonschema 4.18 and later
        from referencing import Registry, Resource
        reg = Registry().with_resources(
            (k, Resource.from_contents(v)) for k, v in schemas.items())
        return jsonschema.Draft202012Validator(top, registry=reg)
    except ImportError:  # Debian 12's 4.10
        res = jsonschema.RefResolver.from_schema(top, store=schemas)
        return jsonschema.Draft202012Validator(top, resolver=res)


def empty_strings(v):
    if isinstance(v, dict):
        return any(empty_strings(x) for x in v.values())
    if isinstance(v, list):
        return any(empty_strings(x) for x in v)
    return isinstance(v, str) and not v


def check(path, v):
    """Problems of one file (empty list: none)."""
    bad = []
    with open(path) as fh:
        text = fh.read()
    if not text.endswith("\n"):
        bad.append("no trailing newline")
    d = yaml.load(text, Loader=DecimalLoader)
    errs = sorted(v.iter_errors(d), key=lambda e: list(e.path))
    bad += ["schema: %s at %s" % (e.message, "/".join(map(str, e.path)))
            for e in errs]
    if errs or not isinstance(d, dict):
        return bad
    if empty_strings(d):
        bad.append("empty string")
    pn = d.get("part_number", "")
    if not d["slug"].startswith(slug_manufacturer(d["manufacturer"])):
        bad.append("slug %s does not start with %s" %
                   (d["slug"], slug_manufacturer(d["manufacturer"])))
    ends = [slug_model(d["model"])] + ([slug_model(pn, True)] if pn else [])
    if not any(d["slug"].endswith(e) for e in ends):
        bad.append("slug %s ends with none of %s" % (d["slug"], ends))
    name = os.path.basename(path).rsplit(".", 1)[0].casefold()
    if name not in ends + ([pn.casefold()] if pn else []):
        bad.append("file name %s is none of %s" % (name, ends))
    for kind in COMPONENTS:
        names = [c["name"] for c in d.get(kind, [])]
        if len(names) != len(set(names)):
            bad.append("duplicate names in " + kind)
    if not d.get("power-ports"):
        head = text.split("\nmanufacturer:", 1)[0]
        if "power ports" not in head:
            bad.append("no power ports, and no comment saying why")
    return bad


def main():
    v = validator(sys.argv[1])
    for out in sys.argv[2:]:
        files = sorted(glob.glob(os.path.join(out, "netbox", "device-types",
                                              "*", "*.yaml")))
        tag = os.path.basename(out.rstrip("/"))
        if not files:
            print("FAIL\t%s device types written\tnone" % tag)
            continue
        print("PASS\t%s device types written\t%d" % (tag, len(files)))
        for f in files:
            case = "%s %s" % (tag, os.path.relpath(f, out))
            bad = check(f, v)
            if bad:
                print("FAIL\t%s\t%s" % (case, "; ".join(bad)))
            else:
                print("PASS\t%s\t" % case)


if __name__ == "__main__":
    main()
