/**
 * Argo CD, installed by Pulumi to deliver the platform from Git: a Helm release of Argo CD's chart (`CHARTS.argoCd`,
 * installed as every other add-on is, so `mara:chartArchiveDir` serves it too), the cluster's facts as an Argo CD
 * cluster Secret, and one root Application that syncs the Applications `mara render` writes for the render's
 * component folders, in their waves (docs/gitops.md).
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { CHARTS, ChartSettings, DEFAULTS } from "../../contracts";
import {
    GIT_REPO_URL_ALLOWED,
    GIT_REVISION_ALLOWED,
    gitRepoUrlProblem,
    gitRevisionProblem,
    REPO_FOLDER_ALLOWED,
    repoFolderProblem,
    RepositoryCredentials,
    repositoryTransport,
    repoUrlCredential,
} from "../../contracts/gitSource";
import { APPLICATIONS_FOLDER, applicationManifest, ARGOCD_CM_SETTINGS, ARGOCD_NAMESPACE, ARGOCD_RELEASE, folderPath, GitSource } from "./applications";
import { ClusterFacts, clusterSecretManifest } from "./clusterSecret";
import { repositorySecretFields, repositorySecretMetadata } from "./repository";
import { helmRelease, platformNamespace } from "../helmRelease";
import { guardedOptions } from "../ownership/guard";

/** Arguments of {@link ArgoCd}. */
export interface ArgoCdArgs {
    /** The repository, revision and folder of the platform's render; the root Application syncs its `argocd/` folder. Required. */
    source: pulumi.Input<GitSource>;
    /** What the cluster's Argo CD cluster Secret says about it (name, infrastructure type, region, addresses, registry). Required. */
    cluster: pulumi.Input<Omit<ClusterFacts, "source">>;
    /** Name of the root Application (in the `argocd` namespace). Default `mara`. */
    applicationName?: string;
    /** Chart coordinates. Default: the catalogue's argo-cd entry. */
    chart?: ChartSettings;
    /**
     * The repository's credential, for a private repository: written into Argo CD's repository Secret `mara-repository`
     * (`username`/`password` for an https:// URL, `sshPrivateKey` for an SSH one), its values secret in the state.
     * Default: none (a public repository, or a repository Secret made elsewhere).
     */
    repository?: RepositoryCredentials;
}

/**
 * Why a source given as a plain value cannot be cloned, or its credential does not fit it (contracts/gitSource.ts):
 * an Output is checked by whoever made it (the program's configuration).
 */
function sourceProblem(source: pulumi.Input<GitSource>, repository: RepositoryCredentials | undefined): string | undefined {
    if (pulumi.Output.isInstance(source) || typeof (source as PromiseLike<unknown>).then === "function") return undefined;
    const s = source as GitSource;
    if (typeof s.repoUrl !== "string" || typeof s.revision !== "string" || typeof s.path !== "string") return undefined;
    const url = gitRepoUrlProblem(s.repoUrl) ?? (repoUrlCredential(s.repoUrl) ? `holds a credential (${repoUrlCredential(s.repoUrl)}); give it as repository instead` : undefined);
    if (url) return `source.repoUrl ${url}. Allowed: ${GIT_REPO_URL_ALLOWED}`;
    const revision = gitRevisionProblem(s.revision);
    if (revision) return `source.revision "${s.revision}" ${revision}. Allowed: ${GIT_REVISION_ALLOWED}`;
    const path = repoFolderProblem(s.path);
    if (path) return `source.path "${s.path}" ${path}. Allowed: ${REPO_FOLDER_ALLOWED}`;
    const ssh = repositoryTransport(s.repoUrl) === "ssh";
    if (repository && ssh !== "sshPrivateKey" in repository) return `repository holds ${ssh ? "a password" : "an SSH key"}, and source.repoUrl is an ${ssh ? "SSH" : "HTTP(S)"} URL. Allowed: sshPrivateKey for an SSH URL, username and password for an https:// one`;
    if (repository && "password" in repository && repositoryTransport(s.repoUrl) === "http") return "repository holds a password, which an http:// source.repoUrl would send in clear text. Allowed: an https:// URL";
    return undefined;
}

/**
 * Chart values, each a departure from the chart's defaults the platform needs; everything else is the chart's
 * (its CRDs installed with the release and kept when it is uninstalled, one replica of each component, Redis
 * without HA, the ApplicationSet and notifications controllers):
 *
 * - `configs.cm`: annotation tracking and a health check for Applications (`ARGOCD_CM_SETTINGS`), which the
 *   render's waves rely on; and no `url`, which the chart would otherwise set to `https://argocd.example.com`
 *   (its placeholder domain): nothing here serves Argo CD under a host name, and the URL is only used for
 *   SSO redirects and links in notifications;
 * - `dex.enabled: false`: Dex serves single sign-on, and nothing configures a connector for it (`dex.config`),
 *   so it would be one more Deployment, image and Service doing nothing; the admin account signs in without it.
 */
export function argoCdValues(): Record<string, unknown> {
    return {
        configs: { cm: { url: "", ...ARGOCD_CM_SETTINGS } },
        dex: { enabled: false },
    };
}

/** Argo CD in the cluster, following the platform's render in Git. */
export class ArgoCd extends pulumi.ComponentResource {
    /** Namespace Argo CD runs in. */
    public readonly namespace: pulumi.Output<string>;
    /** Name of the root Application. */
    public readonly applicationName: pulumi.Output<string>;
    /** Version of the argo-cd chart installed. */
    public readonly version: pulumi.Output<string>;
    /** Status of the Helm release. */
    public readonly status: pulumi.Output<string>;

    constructor(name: string, args: ArgoCdArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:gitops:ArgoCd", name, {}, guardedOptions(name, opts));
        const problem = sourceProblem(args.source, args.repository);
        if (problem) throw new Error(`ArgoCd: ${problem}.`);
        const chart = args.chart ?? CHARTS.argoCd;
        const appName = args.applicationName ?? DEFAULTS.argoCd.applicationName;
        // Labelled as the platform's, as every namespace it creates is: `mara doctor` (run before every `mara up`)
        // takes an unlabelled `argocd` namespace for another installation's.
        const ns = platformNamespace(`${name}-namespace`, ARGOCD_NAMESPACE, "restricted", {}, { parent: this });

        const release = helmRelease(
            `${name}-release`,
            { release: ARGOCD_RELEASE, namespace: ns.metadata.name, chart, values: argoCdValues() },
            { parent: this },
        );

        // The cluster's facts for ApplicationSets and tools reading Argo CD's clusters; no credential (Argo CD runs in it).
        const facts = pulumi.all([args.cluster, args.source]).apply(([cluster, source]) => clusterSecretManifest({ ...cluster, source }, "inCluster") as { metadata: object; stringData: object });
        new k8s.core.v1.Secret(
            `${name}-cluster`,
            { metadata: facts.apply((f) => f.metadata), type: "Opaque", stringData: facts.apply((f) => f.stringData as Record<string, string>) },
            { parent: this, dependsOn: [ns] },
        );

        // A private repository's credential, where Argo CD looks for it: never in the URL, which Git and the outputs hold.
        if (args.repository) {
            const credential = args.repository;
            const fields: Record<string, pulumi.Input<string>> =
                "sshPrivateKey" in credential
                    ? { sshPrivateKey: pulumi.secret(credential.sshPrivateKey) }
                    : { ...(credential.username !== undefined ? { username: credential.username } : {}), password: pulumi.secret(credential.password) };
            new k8s.core.v1.Secret(
                `${name}-repository`,
                {
                    metadata: repositorySecretMetadata(),
                    type: "Opaque",
                    // The whole of it is secret in the state, as the credential in it is.
                    stringData: pulumi.all([pulumi.output(args.source), fields]).apply(([source, credentialFields]): Record<string, string> => ({ ...repositorySecretFields(source.repoUrl), ...credentialFields })),
                },
                { parent: this, dependsOn: [ns] },
            );
        }

        const root = pulumi.output(args.source).apply((source) => applicationManifest(appName, folderPath(source, APPLICATIONS_FOLDER), source, { inCluster: true }));
        // After the release (its CRDs and controllers), so that at destroy it goes first: its finalizer has Argo CD
        // delete what it synced.
        new k8s.apiextensions.CustomResource(
            `${name}-root-application`,
            { apiVersion: "argoproj.io/v1alpha1", kind: "Application", metadata: root.metadata, spec: root.spec },
            { parent: this, dependsOn: [release] },
        );

        this.namespace = ns.metadata.name;
        this.applicationName = pulumi.output(appName);
        this.version = pulumi.output(chart.version);
        this.status = release.status.status;
        this.registerOutputs({ namespace: this.namespace, applicationName: this.applicationName, version: this.version, status: this.status });
    }
}
