/**
 * Keys in a namespace nothing reads. The Pulumi CLI accepts any `<namespace>:<name>` and the program reads only
 * its own namespaces, MARA's and the providers', so a misspelled namespace (`kic-hlem:fqdn`, `Kubernetes:infra_type`)
 * drops the setting without a word: the stack deploys, with the default instead of what was written. A namespace
 * that is one edit from a namespace the program reads (two for names longer than four letters), two swapped
 * neighbouring letters away, or different only in case, gets a warning naming the key it resembles. Other namespaces (`pulumi:`, another tool's) are left alone.
 */
import type { Findings, RawConfig } from "./resolve";
import { closest, editDistance } from "./suggest";
import { listCapped } from "./capped";

/** Namespaces every Pulumi program may carry, which are never typos of ours. */
const PULUMI_NAMESPACES = ["pulumi"];

/** Whether `a` is `b` with two neighbouring letters swapped (`vcp` for `vpc`). */
function swapsTwo(a: string, b: string): boolean {
    if (a.length !== b.length) return false;
    const i = [...a].findIndex((c, k) => c !== b[k]);
    return i >= 0 && i < a.length - 1 && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/** The namespace the program reads that `ns` is a near miss of, if any. */
function nearNamespace(ns: string, readNamespaces: readonly string[]): string | undefined {
    const lower = ns.toLowerCase();
    const byCase = readNamespaces.find((n) => n === lower || swapsTwo(lower, n));
    if (byCase) return byCase;
    const limit = ns.length <= 4 ? 1 : 2;
    let best: string | undefined;
    let bestDistance = limit + 1;
    for (const n of readNamespaces) {
        const d = editDistance(lower, n, limit);
        if (d < bestDistance) [best, bestDistance] = [n, d];
    }
    return best;
}

/**
 * Warns about keys whose namespace is a near miss of one the program reads.
 *
 * @param known - every key the program reads, in every namespace.
 */
export function checkKeyNamespaces(raw: RawConfig, known: readonly string[], findings: Findings): void {
    const readNamespaces = [...new Set(known.map((k) => k.slice(0, k.indexOf(":"))))];
    const knownSet = new Set(known);
    // A namespace is judged once, however many keys it holds.
    const nearOf = new Map<string, string | undefined>();
    const misspelled: { key: string; ns: string; near: string }[] = [];
    for (const key of Object.keys(raw.values)) {
        const ns = key.slice(0, key.indexOf(":"));
        if (readNamespaces.includes(ns) || PULUMI_NAMESPACES.includes(ns)) continue;
        if (!nearOf.has(ns)) nearOf.set(ns, nearNamespace(ns, readNamespaces));
        const near = nearOf.get(ns);
        if (near !== undefined) misspelled.push({ key, ns, near });
    }
    listCapped(
        misspelled,
        (m) => m.key,
        ({ key, ns, near }) => {
            const name = key.slice(key.indexOf(":") + 1);
            const meant = knownSet.has(`${near}:${name}`) ? `${near}:${name}` : closest(`${near}:${name}`, known.filter((k) => k.startsWith(`${near}:`)));
            // Only the key is named: the value may be a secret written under a misspelled namespace.
            findings.warn(`${key} is ignored: nothing reads the "${ns}" namespace; did you mean ${meant ?? `the "${near}" namespace`}?`);
        },
        (n, some) => findings.warn(`${n} more keys are ignored because nothing reads their namespace (${some}).`),
    );
}
