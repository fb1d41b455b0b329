/**
 * The Pulumi Kubernetes Operator's section of the validated configuration (`MaraConfig.pulumiOperator`: its chart,
 * and the stack it deploys under the delivery that installs it) and the rules of `mara:delivery: operator` that span several keys
 * (docs/delivery-operator.md). Read by config/validate.ts, which resolves the keys (keys.ts) and hands this module the
 * lookups. The repository, revision,
 * folder and credential are the GitOps keys (config/gitops.ts checks them for this delivery too); here:
 *
 * - the stack the operator deploys is named (`mara:operatorStack`): the `Stack` CRD requires `spec.stack`;
 * - the workspace can sign in: an access token for Pulumi Cloud or an https:// Pulumi service; an object store
 *   (`s3://`, `azblob://`, `gs://`) takes none, so a token set there is named as doing nothing;
 * - the revision is one the operator can check out: its `gitSource.CurrentCommit`
 *   (pulumi/pulumi-kubernetes-operator operator/internal/controller/pulumi/git.go) takes 40 hex digits for a commit
 *   (go-git's `plumbing.IsHash`) and looks anything else up among the remote's refs by name, so a SHA-256 commit
 *   (64 hex digits) is never found, and an abbreviated commit is found only if a branch or tag has that name.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ChartSettings } from "../../contracts";
import { KEYS } from "../../config/keys";
import type { Lookup } from "../../config/lookup";
import { configSetCommand } from "../../config/problems";
import { Findings, secretOutput } from "../../config/resolve";

/** The operator's validated settings (`MaraConfig.pulumiOperator`). */
export interface PulumiOperatorSection {
    /** The pulumi-kubernetes-operator chart, installed when `mara:delivery` is operator. */
    readonly chart: ChartSettings;
    /** The stack it deploys and how its workspace signs in; set whenever `mara:delivery` is operator. */
    readonly stack?: PulumiOperatorSettings;
}

/** The stack the operator deploys and how its workspace signs in (`MaraConfig.pulumiOperator.stack`, when the delivery is `operator`). */
export interface PulumiOperatorSettings {
    /** The stack the operator deploys (`mara:operatorStack`). */
    readonly stack: string;
    /** The state backend URL; undefined: Pulumi Cloud. */
    readonly backend?: string;
    /** Pulumi access token (secret), unless the backend is an object store. */
    readonly accessToken?: pulumi.Output<string>;
    /** Passphrase of the stack's secrets (secret). */
    readonly passphrase?: pulumi.Output<string>;
}

/** Whether a backend URL is an object store, which the workspace reaches with the cloud's credential, not a Pulumi access token. */
export const objectStoreBackend = (backend: string | undefined): boolean => backend !== undefined && /^(s3|azblob|gs):\/\//i.test(backend);

/** Checks the operator's keys together; see the module comment. */
export function checkOperatorSettings(k: Lookup, findings: Findings): void {
    if (k.d("delivery") !== "operator") return;
    const delivery = `${k.keyOf("delivery")} is operator`;
    if (k.r("operatorStack").source === undefined) {
        findings.problem({
            key: KEYS.operatorStack.key,
            problem: `is not set, and ${delivery}: the operator's Stack names the stack it deploys`,
            allowed: KEYS.operatorStack.type.allowed,
            fix: configSetCommand(KEYS.operatorStack.key, KEYS.operatorStack.example ?? ""),
        });
    }
    const backend = k.v("operatorBackend");
    const token = k.r("operatorAccessToken").source;
    if (objectStoreBackend(backend) && token !== undefined) {
        findings.warn(
            `${token} does nothing with ${k.keyOf("operatorBackend")} = ${backend}: the workspace reaches an object store with the cloud's credential, not a Pulumi access token. Remove it with pulumi config rm ${token}.`,
        );
    }
    if (!objectStoreBackend(backend) && k.r("operatorBackend").source !== undefined && backend === undefined) return; // the backend has its own problem
    if (!objectStoreBackend(backend) && token === undefined) {
        findings.problem({
            key: KEYS.operatorAccessToken.key,
            problem: `is not set, and the operator's workspace signs in to ${backend ?? "Pulumi Cloud"} with one (${delivery})`,
            allowed: "a Pulumi access token (stored encrypted), or an object store as mara:operatorBackend",
            fix: `pulumi config set --secret ${KEYS.operatorAccessToken.key} <token> (Pulumi writes it into a Secret in the cluster, never into Git)`,
        });
    }
    const revision = k.v("gitopsRevision") ?? KEYS.gitopsRevision.default;
    if (/^[0-9a-f]{64}$/i.test(revision)) {
        findings.problem({
            key: k.keyOf("gitopsRevision"),
            value: revision,
            problem: `is a SHA-256 commit, and the operator takes only 40 hex digits for a commit (anything else it looks up as a branch or tag name, and finds none) (${delivery})`,
            allowed: "a branch or tag name, or a commit of 40 hex digits",
            fix: configSetCommand(KEYS.gitopsRevision.key, "main"),
        });
    } else if (/^[0-9a-f]{7,39}$/i.test(revision)) {
        findings.warn(
            `${k.keyOf("gitopsRevision")} = ${revision} looks like an abbreviated commit: the operator takes only a full commit (40 hex digits) for one, and looks anything else up as a branch or tag name. Give the full commit, or ignore this if a branch or tag has that name.`,
        );
    }
}

/** The operator's settings, when it delivers the platform. */
export function operatorSettingsOf(k: Pick<Lookup, "r" | "v" | "d">): PulumiOperatorSettings | undefined {
    if (k.d("delivery") !== "operator") return undefined;
    const backend = k.v("operatorBackend");
    const token = objectStoreBackend(backend) ? undefined : secretOutput(k.r("operatorAccessToken"));
    const passphrase = secretOutput(k.r("operatorPassphrase"));
    return { stack: k.v("operatorStack")!, ...(backend ? { backend } : {}), ...(token ? { accessToken: token } : {}), ...(passphrase ? { passphrase } : {}) };
}

/** The section from the resolved keys and the chart the validation settled on. */
export function pulumiOperatorSettings(k: Pick<Lookup, "r" | "v" | "d">, chart: ChartSettings): PulumiOperatorSection {
    const stack = operatorSettingsOf(k);
    return { chart, ...(stack ? { stack } : {}) };
}
