/**
 * The Pulumi Kubernetes Operator, installed by Pulumi to deliver the platform from Git (`mara:delivery: operator`,
 * docs/delivery-operator.md): a Helm release of the operator's chart (`CHARTS.pulumiOperator`, installed as every other
 * add-on is, so `mara:chartArchiveDir` serves it too; the CRDs of its `crds/` directory applied as resources, so a
 * chart bump upgrades them), and one `Stack` custom resource that has the operator run the project in the repository
 * as the named stack, with its access token and passphrase from a Secret and the repository's credential from another.
 * The workspace the operator starts for the `Stack` runs as its own ServiceAccount, which the operator authenticates
 * through TokenReviews (the `system:auth-delegator` binding its v2 documentation asks for) and which deploys the
 * platform's cluster-wide objects (CRDs, ClusterRoles, admission policies), so it is bound to `cluster-admin`.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { CHARTS, ChartSettings } from "../../contracts";
import { GIT_REPO_URL_ALLOWED, GIT_REVISION_ALLOWED, gitRepoUrlProblem, gitRevisionProblem, REPO_FOLDER_ALLOWED, repoFolderProblem, RepositoryCredentials, repositoryTransport, repoUrlCredential } from "../../contracts/gitSource";
import type { GitSource } from "../argoCd/applications";
import { chartCrdResources } from "../chartCrds";
import { helmRelease, platformNamespace } from "../helmRelease";
import { guardedOptions } from "../ownership/guard";
import { PLATFORM_LABELS } from "../ownership/marks";
import { OPERATOR_NAMESPACE, OPERATOR_RELEASE, STACK_NAME, STACK_REPOSITORY_SECRET_NAME, STACK_SECRET_KEYS, STACK_SECRET_NAME, stackSpec } from "./stack";
import { operatorStackProblem, OPERATOR_STACK_ALLOWED } from "../../contracts/pulumiStack";

/** Arguments of {@link PulumiOperator}. */
export interface PulumiOperatorArgs {
    /**
     * The repository, revision and folder of the Pulumi project the operator deploys (the folder holds its Pulumi.yaml
     * and the stack's `Pulumi.<stack>.yaml`). A revision of 40 hex digits is a commit, anything else a branch or tag.
     * Required.
     */
    source: GitSource;
    /** The stack the operator deploys, as `pulumi stack select` names it (`stack`, `org/stack` or `org/project/stack`). Required. */
    stack: string;
    /** The state backend (`https://`, `s3://`, `azblob://`, `gs://`). Default: Pulumi Cloud. */
    backend?: string;
    /** Pulumi access token (secret), for Pulumi Cloud or a self-hosted Pulumi service. Default: none. */
    accessToken?: pulumi.Input<string>;
    /** Passphrase of the stack's secrets (secret), for the passphrase secrets provider. Default: none. */
    passphrase?: pulumi.Input<string>;
    /**
     * The repository's credential, for a private repository: written into the Secret `mara-repository` the `Stack`
     * names as its `gitAuthSecret` (`sshPrivateKey`; `username` and `password`; or `accessToken` for a password without
     * a user), its values secret in the state. Default: none (a public repository).
     */
    repository?: RepositoryCredentials;
    /** Chart coordinates. Default: the catalogue's pulumi-kubernetes-operator entry. */
    chart?: ChartSettings;
}

/** Why plain arguments cannot make a `Stack` the operator runs (the same rules the configuration checks). */
function argsProblem(a: PulumiOperatorArgs): string | undefined {
    const s = a.source;
    const url = gitRepoUrlProblem(s.repoUrl) ?? (repoUrlCredential(s.repoUrl) ? `holds a credential (${repoUrlCredential(s.repoUrl)}); give it as repository instead` : undefined);
    if (url) return `source.repoUrl ${url}. Allowed: ${GIT_REPO_URL_ALLOWED}`;
    const revision = gitRevisionProblem(s.revision) ?? (/^[0-9a-f]{64}$/i.test(s.revision) ? "is a SHA-256 commit, which the operator cannot check out" : undefined);
    if (revision) return `source.revision "${s.revision}" ${revision}. Allowed: ${GIT_REVISION_ALLOWED}`;
    const path = repoFolderProblem(s.path);
    if (path) return `source.path "${s.path}" ${path}. Allowed: ${REPO_FOLDER_ALLOWED}`;
    const stack = operatorStackProblem(a.stack);
    if (stack) return `stack "${a.stack}" ${stack}. Allowed: ${OPERATOR_STACK_ALLOWED}`;
    const ssh = repositoryTransport(s.repoUrl) === "ssh";
    if (a.repository && ssh !== "sshPrivateKey" in a.repository) return `repository holds ${ssh ? "a password" : "an SSH key"}, and source.repoUrl is an ${ssh ? "SSH" : "HTTP(S)"} URL`;
    return undefined;
}

/** The keys of the repository's Secret, as the operator's `resolveGitAuth` reads a `gitAuthSecret`. */
function gitAuthFields(credential: RepositoryCredentials): Record<string, pulumi.Input<string>> {
    if ("sshPrivateKey" in credential) return { sshPrivateKey: pulumi.secret(credential.sshPrivateKey) };
    if (credential.username !== undefined) return { username: credential.username, password: pulumi.secret(credential.password) };
    return { accessToken: pulumi.secret(credential.password) };
}

/** The Pulumi Kubernetes Operator in the cluster, deploying the platform's in-cluster stack from Git. */
export class PulumiOperator extends pulumi.ComponentResource {
    /** Namespace the operator and the `Stack` live in. */
    public readonly namespace: pulumi.Output<string>;
    /** Name of the `Stack` custom resource. */
    public readonly stackResourceName: pulumi.Output<string>;
    /** Version of the pulumi-kubernetes-operator chart installed. */
    public readonly version: pulumi.Output<string>;
    /** Status of the Helm release. */
    public readonly status: pulumi.Output<string>;

    constructor(name: string, args: PulumiOperatorArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:gitops:PulumiOperator", name, {}, guardedOptions(name, opts));
        const problem = argsProblem(args);
        if (problem) throw new Error(`PulumiOperator: ${problem}.`);
        const chart = args.chart ?? CHARTS.pulumiOperator;
        // Baseline, not restricted: the operator's pod sets no seccomp profile (the chart's podSecurityContext), and the
        // workspace pods it makes for the Stack follow its own template.
        const ns = platformNamespace(`${name}-namespace`, OPERATOR_NAMESPACE, "baseline", {}, { parent: this });
        const crds = chartCrdResources(name, chart, { component: "PulumiOperator" }, { parent: this });
        const release = helmRelease(
            `${name}-release`,
            { release: OPERATOR_RELEASE, namespace: ns.metadata.name, chart, values: {}, skipCrds: crds.skipCrds },
            { parent: this, dependsOn: crds.resources },
        );

        const meta = (n: string) => ({ name: n, namespace: OPERATOR_NAMESPACE, labels: { ...PLATFORM_LABELS } });
        const account = new k8s.core.v1.ServiceAccount(`${name}-stack-account`, { metadata: meta(STACK_NAME) }, { parent: this, dependsOn: [ns] });
        const subjects = [{ kind: "ServiceAccount", name: STACK_NAME, namespace: OPERATOR_NAMESPACE }];
        const bindings = (["system:auth-delegator", "cluster-admin"] as const).map(
            (role) =>
                new k8s.rbac.v1.ClusterRoleBinding(
                    `${name}-stack-${role.replace(/[^a-z-]/g, "-")}`,
                    {
                        metadata: { name: `${STACK_NAME}:${role}`, labels: { ...PLATFORM_LABELS } },
                        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: role },
                        subjects,
                    },
                    { parent: this },
                ),
        );

        const secretFields: Record<string, pulumi.Input<string>> = {
            ...(args.accessToken !== undefined ? { [STACK_SECRET_KEYS.accessToken]: pulumi.secret(args.accessToken) } : {}),
            ...(args.passphrase !== undefined ? { [STACK_SECRET_KEYS.passphrase]: pulumi.secret(args.passphrase) } : {}),
        };
        const secrets: pulumi.Resource[] = [];
        if (Object.keys(secretFields).length > 0) {
            secrets.push(new k8s.core.v1.Secret(`${name}-stack-secret`, { metadata: meta(STACK_SECRET_NAME), type: "Opaque", stringData: secretFields }, { parent: this, dependsOn: [ns] }));
        }
        if (args.repository) {
            secrets.push(
                new k8s.core.v1.Secret(`${name}-repository`, { metadata: meta(STACK_REPOSITORY_SECRET_NAME), type: "Opaque", stringData: gitAuthFields(args.repository) }, { parent: this, dependsOn: [ns] }),
            );
        }

        // After the release (its CRDs and controller), the workspace's identity and its Secrets, so that at destroy it
        // goes first, while the operator still runs to remove its finalizer (destroyOnFinalize false: nothing deployed is destroyed).
        const stack = new k8s.apiextensions.CustomResource(
            `${name}-stack`,
            {
                apiVersion: "pulumi.com/v1",
                kind: "Stack",
                metadata: meta(STACK_NAME),
                spec: stackSpec({
                    source: args.source,
                    stack: args.stack,
                    backend: args.backend,
                    accessToken: args.accessToken !== undefined,
                    passphrase: args.passphrase !== undefined,
                    repositoryCredential: args.repository !== undefined,
                }),
            },
            { parent: this, dependsOn: [release, account, ...bindings, ...secrets, ...crds.resources] },
        );

        this.namespace = ns.metadata.name;
        this.stackResourceName = stack.metadata.name;
        this.version = pulumi.output(chart.version);
        this.status = release.status.status;
        this.registerOutputs({ namespace: this.namespace, stackResourceName: this.stackResourceName, version: this.version, status: this.status });
    }
}

