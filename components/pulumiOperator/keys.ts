/**
 * The Pulumi Kubernetes Operator's configuration keys: the stack it deploys, that stack's state backend and how its
 * workspace signs in, in its own group ("Pulumi Kubernetes Operator", read only with mara:delivery operator), with their value types by the
 * rules Pulumi applies (contracts/pulumiStack.ts for the name), and its chart's three keys. Declared with the key
 * machinery (config/keySpec.ts) and spread into the key table (config/keys.ts). The repository, revision, folder and
 * credential the operator checks out are the GitOps delivery's keys (config/gitops.ts), shared with Argo CD.
 */
import { OPERATOR_STACK_ALLOWED, operatorStackProblem } from "../../contracts/pulumiStack";
import { urlCredentials } from "../../contracts/urlCredentials";
import { chartKeys, spec } from "../../config/keySpec";
import { text, type ValueType } from "../../config/valueTypes";

/** The stack the operator deploys. */
export const operatorStackName = (): ValueType<string> => ({
    pulumiType: "string",
    allowed: OPERATOR_STACK_ALLOWED,
    parse(raw) {
        const value = raw.trim();
        const why = operatorStackProblem(value);
        return why ? { ok: false, reason: why } : { ok: true, value };
    },
    render: (v) => v,
});

/** What a backend URL may be, in the words messages use after "Allowed:". */
export const OPERATOR_BACKEND_ALLOWED = "https://host of a Pulumi service, or an object store the workspace reaches: s3://bucket, azblob://container, gs://bucket; no credential in it";

/**
 * Why `url` is not a backend the operator's workspace can keep the stack's state in, or undefined. The schemes are
 * those Pulumi's `pulumi login` takes (pulumi/pulumi pkg/backend/diy/backend.go, `IsDIYBackendURL`: file, s3, azblob,
 * gs; anything else a Pulumi service) and the Stack CRD's `backend` examples name. Refused: `file://`, because the
 * state would live in the workspace pod's file system, which the operator replaces; `http://`, which would send the
 * access token in clear text; and a credential in the URL, which is written into the Stack in the cluster and into the
 * state: the object store's credential belongs in the workspace's environment.
 */
export function operatorBackendProblem(url: string): string | undefined {
    if (url === "") return "is empty";
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
    if (scheme === undefined) return "is not a URL (scheme://...)";
    if (scheme === "file") return "is a file:// backend, whose state would live in the operator's workspace pod and be lost with it";
    if (scheme === "http") return "is a plain http:// URL, over which the access token would travel in clear text";
    if (!["https", "s3", "azblob", "gs"].includes(scheme)) return `has the scheme ${scheme}://, which Pulumi does not log in to`;
    if (urlCredentials(url).length > 0 || /^[a-z0-9+.-]+:\/\/[^/?#]*@/i.test(url)) return "holds a credential, which would be written into the Stack in the cluster and into the state";
    if (/[\s\u0000-\u001f\u007f]/.test(url)) return "contains white space or control characters";
    if (/^[a-z0-9+.-]+:\/\/(\/|$)/i.test(url)) return "has no host, bucket or container after the scheme";
    return undefined;
}

/** A state backend URL for the operator's stack. */
export const operatorBackendUrl = (): ValueType<string> => ({
    pulumiType: "string",
    allowed: OPERATOR_BACKEND_ALLOWED,
    parse(raw) {
        const value = raw.trim();
        const why = operatorBackendProblem(value);
        return why ? { ok: false, reason: why } : { ok: true, value };
    },
    render: (v) => v,
});

/** The secrets the workspace reads (the same value type as the key table's other secret keys). */
const secretText = text({ allowed: "any non-empty text (stored encrypted)" });

/** The stack the operator deploys and how its workspace reaches that stack's state (MARA had no operator, so no aliases). */
export const PULUMI_OPERATOR_KEYS = {
    operatorStack: spec({
        key: "mara:operatorStack",
        type: operatorStackName(),
        description:
            "With mara:delivery operator: the stack the Pulumi Kubernetes Operator deploys in the cluster (the Stack's spec.stack: stack, org/stack or org/project/stack), whose Pulumi.<stack>.yaml is in mara:gitopsPath of mara:gitopsRepoUrl; required with operator.",
        example: "your-org/platform-in-cluster",
        group: "Pulumi Kubernetes Operator",
    }),
    operatorBackend: spec({
        key: "mara:operatorBackend",
        type: operatorBackendUrl(),
        description:
            "With mara:delivery operator: the state backend of mara:operatorStack (https:// for a self-hosted Pulumi service, or s3://, azblob://, gs://); unset, Pulumi Cloud. Never with a credential in it.",
        example: "s3://your-state-bucket",
        group: "Pulumi Kubernetes Operator",
    }),
    operatorAccessToken: spec({
        key: "mara:operatorAccessToken",
        type: secretText,
        secret: true,
        description:
            "With mara:delivery operator: the Pulumi access token the operator's workspace signs in to Pulumi Cloud (or mara:operatorBackend's https:// service) with; required there. Pulumi writes it into the Secret pulumi-kubernetes-operator/mara-operator-stack, never into Git.",
        group: "Pulumi Kubernetes Operator",
    }),
    operatorPassphrase: spec({
        key: "mara:operatorPassphrase",
        type: secretText,
        secret: true,
        description:
            "With mara:delivery operator: the passphrase of mara:operatorStack's secrets, when that stack uses the passphrase secrets provider (PULUMI_CONFIG_PASSPHRASE in the operator's workspace, from the Secret pulumi-kubernetes-operator/mara-operator-stack).",
        group: "Pulumi Kubernetes Operator",
    }),
};

/** The chart's version, repository and timeout keys. */
export const PULUMI_OPERATOR_CHART_KEYS = chartKeys("pulumiOperator", "Pulumi Kubernetes Operator", {});
