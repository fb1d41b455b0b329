/**
 * Keys in the namespaces of the providers the program uses (`aws:`, `kubernetes:`, `digitalocean:`, `linode:`,
 * `docker:`). Default providers are disabled, and the program builds each provider explicitly from the keys it
 * reads (`aws:region`, `aws:profile`, the tokens, the kubeconfig), so any other key there has no effect: a typo of
 * a key the program reads gets the key it resembles, anything else is named as unused.
 */
import type { Findings, RawConfig } from "./resolve";
import { closest } from "./suggest";
import { listCapped } from "./capped";

/** Provider namespaces whose unknown keys are reported, with what the program builds that provider from. */
const BUILT_FROM: Readonly<Record<string, string>> = {
    aws: "aws:region and aws:profile (and the AWS_* environment variables)",
    kubernetes: "the cluster's kubeconfig",
    digitalocean: "digitalocean:token (or DIGITALOCEAN_TOKEN)",
    linode: "linode:token (or LINODE_TOKEN)",
    docker: "the local Docker engine (DOCKER_HOST)",
};

/** Warns about keys in provider namespaces the program does not read. */
export function checkProviderKeys(raw: RawConfig, known: readonly string[], findings: Findings): void {
    const knownSet = new Set(known);
    const unread = Object.keys(raw.values).filter((key) => BUILT_FROM[key.slice(0, key.indexOf(":"))] !== undefined && !knownSet.has(key));
    listCapped(
        unread,
        (k) => k,
        (key) => {
            const ns = key.slice(0, key.indexOf(":"));
            // eks: and the MARA namespaces are checked with the program's own keys (validate.ts).
            const guess = closest(key, known.filter((k) => k.startsWith(`${ns}:`)));
            findings.warn(
                guess
                    ? `${key} is not a setting this program reads and is ignored; did you mean ${guess}?`
                    : `${key} is not read: this program builds its ${ns} provider from ${BUILT_FROM[ns]}, and default providers are disabled, so provider settings in the stack do not apply.`,
            );
        },
        (n, some) => findings.warn(`${n} more provider settings are not read and do not apply (${some}).`),
    );
}
