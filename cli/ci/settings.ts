/**
 * What a CI workflow for a stack needs to know, and the checks that a written workflow could run at all: where the
 * stack's state is and how the runner reaches it, how its secrets are encrypted, which cloud credentials its jobs
 * need, and whether review stacks can be made from it. Every refusal here happens before `mara init` creates the
 * stack or writes anything.
 *
 * Nothing secret is kept: the backend URL (which may carry a database password) and every token stay in the CI's
 * secret store, and the workflow names them (`secrets.PULUMI_BACKEND_URL`); only their kinds are decided here.
 */
import type { InfraConfig } from "../../config";
import { shortenValue } from "../../config/redact";
import { CliError, EXIT } from "../kernel/io";

/** The CI systems `mara init --ci` writes workflows for. */
export const CI_SYSTEMS = ["github"] as const;
export type CiSystem = (typeof CI_SYSTEMS)[number];

/**
 * The CI system a `--ci` value names, in any capitals.
 *
 * @throws CliError (usage) naming the value and the systems there are.
 */
export function parseCiSystem(value: string): CiSystem {
    const v = value.trim().toLowerCase();
    const found = CI_SYSTEMS.find((s) => s === v);
    if (found) return found;
    const hint = v === "gitlab" ? " (GitLab CI is not written yet: docs/ci.md says what the GitHub workflows do, to copy)" : "";
    throw new CliError(`--ci ${JSON.stringify(shortenValue(value))}: not a CI system mara writes workflows for; use --ci ${CI_SYSTEMS.join(" or ")}${hint}`, EXIT.usage);
}

/** Where the stack's state lives, as the runner must reach it. */
export type CiBackend =
    /** Pulumi Cloud (or a self-hosted Pulumi Cloud, `custom`): a PULUMI_ACCESS_TOKEN secret; a custom one's URL from the secret store. */
    | { readonly kind: "cloud"; readonly custom: boolean }
    /** A self-managed backend (s3://, gs://, azblob://, postgres://, ...): its URL from the secret store. */
    | { readonly kind: "self-managed"; readonly scheme: string };

/** The Pulumi Cloud's own addresses: `pulumi login` with no URL reaches it, so the workflow needs no `cloud-url`. */
const PULUMI_CLOUD = new Set(["api.pulumi.com", "app.pulumi.com"]);

/**
 * The backend the workflow uses: the one `mara init` is logged in to. A local one (`file://`) is refused: its state is
 * a folder on this machine, which no runner can read, and a runner's own folder is gone when its job ends.
 *
 * @param url - `pulumi whoami`'s URL. Never quoted in a message unless it is a local path: a self-managed backend's
 *   URL can carry a password (postgres://user:password@host).
 * @throws CliError (pre-flight) for a local backend or one with no URL.
 */
export function ciBackend(url: string): CiBackend {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.trim())?.[1]?.toLowerCase();
    if (scheme === "file") {
        throw new CliError(
            `the Pulumi backend is ${url}, a folder on this machine: a CI runner cannot read that state, and what it wrote there would be gone when its job ends. Log in to a backend the runner can reach (pulumi login, for the Pulumi Cloud; or pulumi login s3://<bucket>, gs://, azblob://), move the stack there (pulumi stack export, then import), and run this again`,
            EXIT.preflight,
        );
    }
    if (!scheme) throw new CliError("pulumi whoami named no backend URL, so the workflow could not say where the stack's state is; run pulumi login and try again", EXIT.preflight);
    if (scheme === "https" || scheme === "http") {
        let host = "";
        try {
            host = new URL(url).hostname.toLowerCase();
        } catch {
            // Not parseable: treat it as a custom one, whose URL the secret store holds.
        }
        return { kind: "cloud", custom: !PULUMI_CLOUD.has(host) };
    }
    return { kind: "self-managed", scheme };
}

/** How the stack's secrets are encrypted (the stack file's `secretsprovider` and `encryptionsalt`). */
export type SecretsKind = { readonly kind: "service" } | { readonly kind: "passphrase" } | { readonly kind: "kms"; readonly scheme: string };

/**
 * The secrets provider of a stack, from its stack file's fields, or (a stack not created yet) the backend's default:
 * the Pulumi Cloud's own encryption on the Pulumi Cloud, a passphrase on a self-managed backend (Pulumi's
 * `pulumi stack init` without `--secrets-provider`).
 */
export function secretsKind(stackFile: Readonly<Record<string, unknown>> | undefined, backend: CiBackend): SecretsKind {
    const provider = typeof stackFile?.secretsprovider === "string" ? stackFile.secretsprovider.trim() : undefined;
    if (provider && provider !== "default" && provider !== "service") {
        if (provider === "passphrase") return { kind: "passphrase" };
        const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(provider)?.[1]?.toLowerCase();
        return { kind: "kms", scheme: scheme ?? provider.replace(/[^\w.+-]/g, "?").slice(0, 20) };
    }
    if (stackFile && "encryptionsalt" in stackFile) return { kind: "passphrase" };
    if (provider) return { kind: "service" };
    return backend.kind === "cloud" ? { kind: "service" } : { kind: "passphrase" };
}

/** The facts of the stack a workflow is written for. */
export interface StackFacts {
    /** The stack's name as given (`dev`, `org/dev`, `org/project/dev`). */
    readonly stack: string;
    readonly backend: CiBackend;
    readonly secrets: SecretsKind;
    /** The validated infrastructure settings. */
    readonly infra: InfraConfig;
    /** The stack stores the cloud's API token (`digitalocean:token`, `linode:token`) encrypted, so no CI secret is needed for it. */
    readonly storesCloudToken: boolean;
    /** `aws:profile` as the stack stores it (the runner gets that profile from the OIDC credentials). */
    readonly awsProfile?: string;
    /** An existing cluster's kubeconfig is a path (which a runner does not have), not the stack's own encrypted copy. */
    readonly kubeconfigIsPath: boolean;
}

/** Everything a workflow writer needs. */
export interface CiSettings {
    readonly stack: string;
    /** The project folder relative to the repository root, `/`-separated; empty at the root. */
    readonly workDir: string;
    /** The branch whose pushes run `pulumi up`. */
    readonly branch: string;
    /** The Pulumi CLI versions the runner may install (a semver range pulumi/actions resolves). */
    readonly pulumiVersion: string;
    readonly backend: CiBackend;
    /** The stack's secrets need PULUMI_CONFIG_PASSPHRASE. */
    readonly passphrase: boolean;
    /** AWS credentials through OIDC: for an AWS stack, an S3 backend or an AWS KMS key. */
    readonly aws?: {
        /** The region of the stack; undefined takes the repository variable AWS_REGION. */
        readonly region?: string;
        readonly profile?: string;
    };
    /** The environment variable of the cloud's API token, when the stack does not store one. */
    readonly cloudToken?: "DIGITALOCEAN_TOKEN" | "LINODE_TOKEN";
    /** A short-lived stack per pull request. */
    readonly reviewStacks: boolean;
}

/**
 * Pulumi's limit on a stack's own name (pulumi/pulumi pkg/backend/diy/store.go, `ParseReference`: "stack names are
 * limited to 100 characters"; the Pulumi Cloud's is the same).
 */
export const STACK_NAME_LIMIT = 100;
/** A review stack is `<stack>-pr-<number>`: room for a pull request number of ten digits. */
export const REVIEW_SUFFIX_ROOM = "-pr-".length + 10;

/** The name of the review stack of pull request `number` (the workflow builds the same from its event). */
export const reviewStackName = (stack: string, number: string): string => `${stack}-pr-${number}`;

/**
 * The workflow's settings, or the reason none can work. Warnings say what the workflow leaves to the user.
 *
 * @throws CliError (usage) when review stacks cannot be made from this stack.
 */
export function ciSettings(
    facts: StackFacts,
    place: { readonly workDir: string; readonly branch: string; readonly pulumiVersion: string },
    reviewStacks: boolean,
): { settings: CiSettings; warnings: string[] } {
    const warnings: string[] = [];
    const { infra, backend, secrets } = facts;
    if (facts.stack.split("/").some((part) => part.startsWith("-"))) {
        throw new CliError(`--ci: the stack name "${facts.stack}" starts a part with '-', which the workflow's commands (pulumi, mara validate) would take for an option; use a stack whose name starts with a letter or digit`, EXIT.usage);
    }
    if (reviewStacks) reviewStackProblems(facts);

    const awsInfra = infra.type === "aws";
    const s3 = backend.kind === "self-managed" && backend.scheme === "s3";
    const awsKms = secrets.kind === "kms" && secrets.scheme === "awskms";
    const aws = awsInfra || s3 || awsKms ? { region: awsInfra ? infra.region : undefined, profile: awsInfra ? facts.awsProfile : undefined } : undefined;

    if (backend.kind === "self-managed" && !s3) {
        warnings.push(
            `the stack's state is in ${backend.scheme}:// storage, and the workflow logs in to no cloud but AWS: add your cloud's login step (with OIDC where it offers it) before the Pulumi steps, or the runner cannot read the state`,
        );
    }
    if (secrets.kind === "kms" && !awsKms) {
        warnings.push(`the stack's secrets are encrypted with a ${secrets.scheme} key, and the workflow gives its jobs no credentials for it: add that cloud's login step before the Pulumi steps`);
    }
    if (infra.type === "kubeconfig" && facts.kubeconfigIsPath) {
        warnings.push(
            "mara:kubeconfig names a file on this machine, which a runner does not have: store the kubeconfig in the stack, encrypted, for the workflow to use it (pulumi config set --secret mara:kubeconfig \"$(kubectl config view --raw --minify)\")",
        );
    }
    const cloudToken = facts.storesCloudToken ? undefined : infra.type === "digitalocean" ? "DIGITALOCEAN_TOKEN" : infra.type === "linode" ? "LINODE_TOKEN" : undefined;
    return {
        settings: { stack: facts.stack, ...place, backend, passphrase: secrets.kind === "passphrase", aws, cloudToken, reviewStacks },
        warnings,
    };
}

/** Why review stacks cannot be made from this stack. */
function reviewStackProblems(facts: StackFacts): void {
    const own = facts.stack.split("/").pop()!;
    const fail = (why: string) => {
        throw new CliError(`--review-stacks: ${why}`, EXIT.usage);
    };
    if (facts.infra.type === "kubeconfig") {
        fail(
            "a review stack of an existing cluster would install the platform a second time into the same cluster, whose add-ons' namespaces (fixed names) this stack owns, and the platform refuses to take over what another stack owns; write the workflow without --review-stacks, or give review stacks a cluster of their own (a stack of type aws, digitalocean or linode)",
        );
    }
    if (own.length + REVIEW_SUFFIX_ROOM > STACK_NAME_LIMIT) {
        fail(`the stack's name "${own}" has ${own.length} characters, and a review stack's name adds "-pr-<number>": Pulumi allows ${STACK_NAME_LIMIT} characters, so use a stack name of at most ${STACK_NAME_LIMIT - REVIEW_SUFFIX_ROOM}`);
    }
    if (facts.secrets.kind === "kms") {
        fail(
            `the stack's secrets are encrypted with a ${facts.secrets.scheme} key, and a review stack made by pulumi stack init --copy-config-from gets the backend's default secrets provider instead; use review stacks with a stack whose secrets the Pulumi Cloud or a passphrase encrypts`,
        );
    }
}

/** The secrets and repository variables the workflows read. */
export function requiredSettings(s: CiSettings): { secrets: string[]; variables: string[] } {
    const secrets = [
        ...(s.backend.kind === "cloud" ? ["PULUMI_ACCESS_TOKEN"] : []),
        ...(s.backend.kind === "self-managed" || s.backend.custom ? ["PULUMI_BACKEND_URL"] : []),
        ...(s.passphrase ? ["PULUMI_CONFIG_PASSPHRASE"] : []),
        ...(s.cloudToken ? [s.cloudToken] : []),
    ];
    const variables = s.aws ? ["AWS_ROLE_TO_ASSUME", ...(s.aws.region ? [] : ["AWS_REGION"])] : [];
    return { secrets, variables };
}
