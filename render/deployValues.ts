/**
 * Values the cloud computes only when `pulumi up` creates something (the registry's repository URL, the digest of
 * the pushed controller image, the ingress load balancer's address), and that end up in Kubernetes manifests.
 * `mara render` runs the program as `pulumi up` would, with the simulated cloud's answers for everything else, but
 * these values come either from the stack's outputs (`--from-stack`) or are clear placeholders, never from the
 * simulated cloud: a manifest must not carry an invented value. A placeholder has the form of the value it stands
 * for (a host name under `.invalid`, a name the DNS reserves for names that never resolve; a digest of zeros), so
 * every object still passes the API server's and the kubelet's checks and nothing fails at apply; it just never
 * resolves or pulls.
 */
import { isIPv6 } from "net";
import type * as pulumi from "@pulumi/pulumi";
import type { ConfigProblem } from "../config/problems";
import { hostnameProblem, imageRepositoryProblem, isIpv4 } from "../contracts/names";
import { computedState, invokeAnswer } from "../offline/simulatedCloud";

/** One value the cloud computes at deploy time. */
export interface DeployValue {
    /** Placeholder written when the value is not known, of the value's form. */
    readonly placeholder: string;
    /** What it is, for the report. */
    readonly what: string;
    /** The stack output it is read from with `--from-stack`. */
    readonly output: string;
    /** The value, from the stack output's value (undefined when the output does not give it). */
    readonly fromOutput: (value: unknown) => string | undefined;
    /** What the value must look like, in the words shown after "Allowed:". */
    readonly allowed: string;
    /** Why a value the output gives cannot go into a manifest, by the rule of its form (contracts/names.ts), or undefined. */
    readonly problem: (value: string) => string | undefined;
}

/** A plain, non-empty text output; `pulumi stack output --json` shows a secret output as "[secret]", which is no value. */
const text = (v: unknown) => (typeof v === "string" && v !== "" && v !== "[secret]" ? v : undefined);
/** DOCR repositories are `<registry endpoint>/nginx-ingress` (components/docr.ts). */
const DOCR_REPOSITORY = "/nginx-ingress";
/** A registry repository: it becomes the image of the controller's Deployment, with the digest appended. */
const repository = (v: string) => imageRepositoryProblem(v, { registry: true });
const REPOSITORY_ALLOWED = "an image repository with its registry host and no scheme, tag or digest, such as 123456789012.dkr.ecr.us-east-1.amazonaws.com/ingress-controller-dev";

/** The deploy-time values, by key. */
export const DEPLOY_VALUES = {
    registryRepository: {
        placeholder: "registry-repository.mara-placeholder.invalid/nginx-ingress",
        what: "URL of the container registry repository the ingress controller image is pushed to (ECR)",
        output: "repository_url",
        fromOutput: text,
        allowed: REPOSITORY_ALLOWED,
        problem: repository,
    },
    registryEndpoint: {
        placeholder: "registry-endpoint.mara-placeholder.invalid",
        what: "endpoint of the DigitalOcean container registry the ingress controller image is pushed to",
        output: "repository_url",
        fromOutput: (v: unknown) => text(v)?.replace(new RegExp(`${DOCR_REPOSITORY}$`), ""),
        allowed: REPOSITORY_ALLOWED,
        problem: repository,
    },
    kicImageDigest: {
        placeholder: `sha256:${"0".repeat(64)}`,
        what: "digest (sha256:…) of the ingress controller image as the registry stored it",
        output: "kic_image_digest",
        fromOutput: text,
        allowed: "sha256: and 64 lower-case hexadecimal digits",
        problem: (v: string) => (/^sha256:[0-9a-f]{64}$/.test(v) ? undefined : "is not a sha256 digest"),
    },
    loadBalancerHostname: {
        placeholder: "lb-hostname.mara-placeholder.invalid",
        what: "host name of the ingress controller's load balancer (the application's host when no FQDN is configured)",
        output: "lb_ingress_hostname",
        fromOutput: text,
        allowed: "a DNS name such as a1b2c3-1234567890.us-east-1.elb.amazonaws.com: letters, digits and '-' in labels of at most 63 characters, at most 253 in all",
        problem: hostnameProblem,
    },
    loadBalancerIp: {
        // TEST-NET-1 (RFC 5737): an address for documentation that no network routes.
        placeholder: "192.0.2.1",
        what: "IP address of the ingress controller's load balancer",
        output: "lb_ingress_ip",
        fromOutput: text,
        allowed: "an IPv4 or IPv6 address, such as 203.0.113.10",
        problem: (v: string) => (isIpv4(v) || isIPv6(v) ? undefined : "is not an IP address"),
    },
} as const satisfies Record<string, DeployValue>;

/** Key of a deploy-time value. */
export type DeployValueKey = keyof typeof DEPLOY_VALUES;

/** Where each deploy-time value came from in one render. */
export interface DeployValueSource {
    /** The value to use for a key: the stack output's, or its placeholder. */
    value(key: DeployValueKey): string;
    /** Keys the run asked for whose values came from the stack's outputs. */
    readonly fromStack: ReadonlySet<DeployValueKey>;
}

/**
 * Deploy-time values from a stack's outputs (as `pulumi stack output --json` prints them), or placeholders for
 * those the outputs do not give. Secret outputs are not needed and not expected: none of these values is secret.
 */
export function deployValues(outputs: Readonly<Record<string, unknown>> | undefined): DeployValueSource {
    const known = new Map<DeployValueKey, string>();
    for (const [key, dv] of Object.entries(DEPLOY_VALUES) as [DeployValueKey, DeployValue][]) {
        const v = outputs ? dv.fromOutput(outputs[dv.output]) : undefined;
        // A value of the wrong form never reaches a manifest; `mara render` refuses it first (deployValueProblems).
        if (v !== undefined && dv.problem(v) === undefined) known.set(key, v);
    }
    const fromStack = new Set<DeployValueKey>();
    return {
        value: (key) => {
            const v = known.get(key);
            if (v === undefined) return DEPLOY_VALUES[key].placeholder;
            fromStack.add(key);
            return v;
        },
        fromStack,
    };
}

/**
 * The stack outputs a render would take a deploy-time value from that no manifest may hold: text of the wrong form
 * (a host name with a line break, a registry URL with a scheme, a name of 100,000 characters) or not text at all.
 * Outputs that are missing, empty or shown as "[secret]" give no value and become placeholders instead.
 *
 * @param where - where the outputs came from, for the fix ("outputs.json", "the stack's outputs").
 */
export function deployValueProblems(outputs: Readonly<Record<string, unknown>>, where: string): ConfigProblem[] {
    const problems: ConfigProblem[] = [];
    for (const dv of Object.values(DEPLOY_VALUES) as DeployValue[]) {
        const given = outputs[dv.output];
        if (given === undefined || given === null || given === "" || given === "[secret]") continue;
        const fix = `correct or remove ${dv.output} in ${where} (without it the value is written as ${dv.placeholder} with --allow-placeholders); \`pulumi stack output ${dv.output}\` shows what the stack holds`;
        const v = dv.fromOutput(given);
        const found: ConfigProblem | undefined =
            typeof given !== "string"
                ? { key: `stack output ${dv.output}`, value: JSON.stringify(given), problem: "is not text", allowed: dv.allowed, fix }
                : v !== undefined && dv.problem(v) !== undefined
                  ? { key: `stack output ${dv.output}`, value: given, problem: dv.problem(v)!, allowed: dv.allowed, fix }
                  : undefined;
        if (found && !problems.some((p) => p.key === found.key && p.problem === found.problem)) problems.push(found);
    }
    return problems;
}

/** Placeholders found in rendered text, as deploy-value keys (Helm templates may lower-case a placeholder). */
export function placeholdersIn(text: string): DeployValueKey[] {
    const lower = text.toLowerCase();
    return (Object.entries(DEPLOY_VALUES) as [DeployValueKey, DeployValue][]).filter(([, dv]) => lower.includes(dv.placeholder.toLowerCase())).map(([k]) => k);
}

/** Any placeholder, or anything under the placeholders' domain: what a check must never find in a file written without placeholders. */
export const PLACEHOLDER_PATTERN = new RegExp(["mara-placeholder", ...Object.values(DEPLOY_VALUES).map((v) => v.placeholder)].map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "i");

/**
 * Computed outputs of a resource for a render run: the simulated cloud's, with every deploy-time value that can
 * reach a manifest replaced by its stack output or placeholder.
 */
export function renderState(args: pulumi.runtime.MockResourceArgs, region: string, values: DeployValueSource): Record<string, unknown> {
    const state = computedState(args, region);
    switch (args.type) {
        case "aws:ecr/repository:Repository":
            return { ...state, repositoryUrl: values.value("registryRepository") };
        case "digitalocean:index/containerRegistry:ContainerRegistry":
            return { ...state, endpoint: values.value("registryEndpoint") };
        case "docker:index/registryImage:RegistryImage":
            return { ...state, sha256Digest: values.value("kicImageDigest") };
        case "kubernetes:core/v1:Service": {
            const ingress = (state.status as { loadBalancer?: { ingress?: { hostname?: string; ip?: string }[] } } | undefined)?.loadBalancer?.ingress?.[0];
            if (!ingress) return state;
            const address = ingress.hostname !== undefined ? { hostname: values.value("loadBalancerHostname") } : { ip: values.value("loadBalancerIp") };
            return { ...state, status: { loadBalancer: { ingress: [address] } } };
        }
        default:
            return state;
    }
}

/** Answers to lookups for a render run: the simulated cloud's, with an adopted registry's endpoint as a deploy-time value. */
export function renderInvoke(args: Pick<pulumi.runtime.MockCallArgs, "token" | "inputs">, region: string, values: DeployValueSource): Record<string, unknown> | undefined {
    const answer = invokeAnswer(args, region);
    if (answer && args.token === "digitalocean:index/getContainerRegistry:getContainerRegistry") return { ...answer, endpoint: values.value("registryEndpoint") };
    return answer;
}
