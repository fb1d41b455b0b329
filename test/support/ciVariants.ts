/**
 * Every kind of workflow `mara init --ci github` writes: the settings it derives (through the same `ciSettings` the
 * command calls) for each infrastructure type as validation reads it, each kind of backend and secrets provider, with
 * and without review stacks, at the repository root and in a folder with a branch whose name needs escaping.
 */
import { InfraConfig, validateConfig } from "../../config";
import { CiBackend, CiSettings, ciSettings, SecretsKind, StackFacts } from "../../cli/ci/settings";
import { KUBECONFIG_TEXT, rawConfig } from "./config";

/** A stack of each infrastructure type, as the key values a stack file would hold. */
const STACKS: Record<string, { values: Record<string, string>; secret?: string[]; files?: string[]; awsProfile?: string; storesCloudToken?: boolean }> = {
    aws: { values: { "mara:infraType": "aws", "aws:region": "eu-west-1" } },
    "aws-profile": { values: { "mara:infraType": "aws", "aws:region": "us-east-2", "aws:profile": "ops" }, awsProfile: "ops" },
    digitalocean: { values: { "mara:infraType": "digitalocean", "mara:fqdn": "mara.example.com" } },
    "digitalocean-token": { values: { "mara:infraType": "digitalocean", "mara:fqdn": "mara.example.com", "digitalocean:token": "stored" }, secret: ["digitalocean:token"], storesCloudToken: true },
    linode: { values: { "mara:infraType": "linode", "mara:fqdn": "mara.example.com", "mara:lkeRegion": "us-central", "mara:lkeK8sVersion": "1.35" } },
    "kubeconfig-inline": { values: { "mara:infraType": "kubeconfig", "mara:kubeconfig": KUBECONFIG_TEXT, "mara:fqdn": "mara.example.com" }, secret: ["mara:kubeconfig"] },
    "kubeconfig-path": { values: { "mara:infraType": "kubeconfig", "mara:kubeconfig": "/home/me/.kube/config", "mara:fqdn": "mara.example.com" }, files: ["/home/me/.kube/config"] },
};

const BACKENDS: Record<string, CiBackend> = {
    cloud: { kind: "cloud", custom: false },
    "cloud-custom": { kind: "cloud", custom: true },
    s3: { kind: "self-managed", scheme: "s3" },
    gs: { kind: "self-managed", scheme: "gs" },
};

/** The validated infrastructure settings of a stack above. */
export function infraOf(name: keyof typeof STACKS): InfraConfig {
    const s = STACKS[name]!;
    const result = validateConfig(rawConfig(s.values, { secret: s.secret, files: s.files }));
    if (!result.config) throw new Error(`test stack ${name} is not valid: ${result.problems.map((p) => p.problem).join("; ")}`);
    return result.config.infra;
}

/** The facts of a stack above on a backend. */
export function factsOf(name: keyof typeof STACKS, backend: CiBackend, secrets: SecretsKind = backend.kind === "cloud" ? { kind: "service" } : { kind: "passphrase" }, stack = "dev"): StackFacts {
    const s = STACKS[name]!;
    const infra = infraOf(name);
    return {
        stack,
        backend,
        secrets,
        infra,
        storesCloudToken: s.storesCloudToken === true,
        awsProfile: s.awsProfile,
        kubeconfigIsPath: name === "kubeconfig-path",
    };
}

/** One variant: a label for file names and messages, and its settings. */
export interface CiVariant {
    readonly label: string;
    readonly settings: CiSettings;
}

/** Every variant (review stacks only where a stack can have them). */
export function ciVariants(): CiVariant[] {
    const out: CiVariant[] = [];
    let i = 0;
    for (const stackKind of Object.keys(STACKS)) {
        for (const [backendName, backend] of Object.entries(BACKENDS)) {
            const secretsKinds: [string, SecretsKind][] = backend.kind === "cloud" ? [["service", { kind: "service" }], ["passphrase", { kind: "passphrase" }]] : [["passphrase", { kind: "passphrase" }]];
            if (backendName === "s3") secretsKinds.push(["awskms", { kind: "kms", scheme: "awskms" }]);
            for (const [secretsName, secrets] of secretsKinds) {
                for (const review of [false, true]) {
                    if (review && (stackKind.startsWith("kubeconfig") || secrets.kind === "kms")) continue;
                    // Alternate between the repository root on main, and a folder with a space and an org-qualified
                    // stack on a branch whose name needs escaping in a branch filter.
                    const nested = i++ % 2 === 1;
                    const place = nested ? { workDir: "platform/infra dir", branch: "release+1", pulumiVersion: "^3.150.0" } : { workDir: "", branch: "main", pulumiVersion: "^3.150.0" };
                    const stack = nested ? "acme/mara-platform/prod.eu-1" : "dev";
                    const { settings } = ciSettings(factsOf(stackKind, backend, secrets, stack), place, review);
                    out.push({ label: `${stackKind}-${backendName}-${secretsName}${review ? "-review" : ""}${nested ? "-nested" : ""}`, settings });
                }
            }
        }
    }
    return out;
}
