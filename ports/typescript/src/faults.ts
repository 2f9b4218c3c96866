/**
 * Deliberate faults for the conformance kit's own tests ("proof that the gate can fail").
 *
 * The library never enables a fault by itself: only the test-only adapter does, when started
 * with `--break=NAME` (or CHUNKSPEC_PORT_BREAK=NAME). Each name is one classic porting
 * mistake; the kit's tests assert that `chunkspec conformance` catches each one and blames
 * the rule it breaks. The catalogue (name, ops, rule, description) is ../faults.json, the
 * one list that this module, scripts/build.mjs and the kit's Python tests read. With no fault
 * enabled, `fault(name)` is false everywhere.
 */

import catalogue from "../faults.json" with { type: "json" };

/** One planted fault as ../faults.json describes it. */
export interface FaultEntry {
  readonly name: string;
  readonly ops: readonly string[];
  readonly rule: string;
  readonly related: readonly string[];
  readonly description: string;
}

/** Every planted fault, in catalogue order. */
export const CATALOGUE: readonly FaultEntry[] = catalogue.faults;

/** The fault names, in catalogue order. */
export const FAULTS: readonly string[] = CATALOGUE.map((entry) => entry.name);

const enabled = new Set<string>();

/** Enable the named faults; throws on an unknown name. */
export function enableFaults(names: Iterable<string>): void {
  for (const name of names) {
    if (!FAULTS.includes(name)) {
      throw new Error(`unknown fault ${JSON.stringify(name)}; known: ${FAULTS.join(", ")}`);
    }
    enabled.add(name);
  }
}

/** True when the named fault is enabled (only ever in the kit's broken-port tests). */
export function fault(name: string): boolean {
  return enabled.size !== 0 && enabled.has(name);
}
