/**
 * What validation says about one stack never contradicts itself. Over every key under each of its names, on every
 * infrastructure type, set to values it refuses (and in the combinations where one key decides whether another is
 * needed):
 *
 * - a problem never says a key "is not set" when the stack sets it: a refused value has its own problem, and a
 *   second, false one would send the user to set what is already set;
 * - a key with a problem never also draws a warning that calls it unused, ignored or unset, or that talks about its
 *   value as if it were used: a key either does nothing here (a warning) or must be fixed (an error), not both.
 */
import { describe, expect, it } from "vitest";
import { formatProblem, KEYS, KeySpec, validateConfig } from "../../config";
import { KUBECONFIG_TEXT, rawConfig, TEST_TODAY } from "../support/config";

const STACKS: Record<string, Record<string, string>> = {
    aws: { "kubernetes:infra_type": "aws", "aws:region": "us-east-1" },
    digitalocean: { "kubernetes:infra_type": "digitalocean", "kic-helm:fqdn": "mara.example.com" },
    linode: { "kubernetes:infra_type": "linode", "linode:region": "us-central", "linode:k8s_version": "1.35", "kic-helm:fqdn": "mara.example.com" },
    kubeconfig: { "kubernetes:infra_type": "kubeconfig", "kubernetes:kubeconfig": KUBECONFIG_TEXT, "kic-helm:fqdn": "mara.example.com" },
};

const SPECS = Object.values(KEYS) as KeySpec<unknown>[];
/** Every name of the setting a key name belongs to. */
const NAMES = new Map<string, string[]>(SPECS.flatMap((s) => {
    const all = [s.key, ...s.legacy.map((l) => (l.field ? `${l.key}.${l.field}` : l.key))];
    return all.map((n) => [n, all] as const);
}));
const namesOf = (key: string) => NAMES.get(key) ?? [key];

/** Values no key accepts, and versions each chart key refuses or warns about. */
const REFUSED = ["", "!!", "[\"a\"]"];
const CHART_VERSIONS = ["0.1.0", "2.7.0", "99.0.0"];

/** Keys whose value decides whether another key is needed, each with that other key refused. */
const COMBINATIONS: Record<string, string>[] = [
    { "mara:tlsIssuer": "acme", "mara:acmeEmail": "not-an-email" },
    { "mara:ingressEnablePlus": "true", "mara:nginxJwt": "", "mara:ingressImageName": "private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4" },
    { "mara:doRegistryAdopt": "true", "mara:doRegistryName": "Bad_Name" },
    { "mara:ingressImageOrigin": "source", "mara:registryServer": "ghcr.io", "mara:registryRepository": "o/n", "mara:registryUsername": "u", "mara:registryPassword": "" },
    { "mara:ingressImageOrigin": "source", "mara:registryServer": "https://ghcr.io", "mara:registryRepository": "o/n", "mara:registryUsername": "u", "mara:registryPassword": "p" },
    { "mara:ingressImageOrigin": "source", "mara:ingressMakeTarget": "debian-image-plus", "mara:ingressNginxPlusCertPath": "", "mara:ingressNginxPlusKeyPath": "/k" },
    { "digitalocean:token": "" },
    { "linode:token": "" },
    { "kic:image_name": "nginx/nginx-ingress:5.5.4", "kic-helm:nginx_repository": "Bad Repo", "kic-helm:nginx_tag": "!!" },
];

function stacks(): { name: string; values: Record<string, string> }[] {
    const out: { name: string; values: Record<string, string> }[] = [];
    for (const [type, base] of Object.entries(STACKS)) {
        for (const spec of SPECS) {
            for (const key of [spec.key, ...spec.legacy.filter((l) => !l.field).map((l) => l.key)]) {
                const values = /ChartVersion$/.test(spec.key) ? [...REFUSED, ...CHART_VERSIONS] : REFUSED;
                for (const v of values) out.push({ name: `${type}: ${key} = ${JSON.stringify(v)}`, values: { ...base, [key]: v } });
            }
        }
        for (const c of COMBINATIONS) out.push({ name: `${type}: ${JSON.stringify(c)}`, values: { ...base, ...c } });
    }
    return out;
}

describe("validation never contradicts itself", () => {
    it("over every key, name, infrastructure type and refused value", () => {
        const found: string[] = [];
        for (const { name, values } of stacks()) {
            const result = validateConfig(rawConfig(values, { today: TEST_TODAY }));
            const set = new Set(Object.keys(values));
            for (const p of result.problems) {
                // "X is not set" in the problem (its own key, or one it names) for an X the stack sets.
                const unset = [...(p.problem.startsWith("is not set") ? [p.key] : []), ...[...p.problem.matchAll(/([\w-]+:[\w.-]+) is not set/g)].map((m) => m[1]!)];
                for (const key of unset) if (namesOf(key).some((n) => set.has(n.split(".")[0]!) && (n === key || !n.includes(".")))) found.push(`${name}: a false second problem: ${formatProblem(p)}`);
                for (const w of result.warnings) {
                    const aboutKey = namesOf(p.key).some((n) => new RegExp(`(^|[\\s,(])${n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}([\\s,):=]|$)`).test(w));
                    if (aboutKey && (/not used|ignored|is not set|neither/.test(w) || (p.value !== undefined && w.includes(`${p.key} = ${p.value}`)))) {
                        found.push(`${name}: a warning contradicts the problem on ${p.key}:\n      ${formatProblem(p)}\n      ${w}`);
                    }
                }
            }
        }
        expect(found).toEqual([]);
    }, 120_000);
});
