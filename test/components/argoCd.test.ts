/**
 * ArgoCd for a library user, under mocks: a literal source is checked as git and Argo CD check it (a credential in
 * the URL, a revision that is an option, a folder outside the repository, a credential that does not fit the URL),
 * before any child exists; and the cluster Secret's name and labels are ones the API server takes, and carry no
 * credential, whatever the cluster's name and its kubeconfig's server URL.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { ArgoCd } from "../../components/argoCd";
import { apiServerOf, asLabel, clusterSecretManifest, clusterSecretName } from "../../components/argoCd/clusterSecret";
import { kubernetesNameProblem } from "../../contracts/names";
import { installMocks, settle } from "../support/mocks";

const SOURCE = { repoUrl: "https://git.example.com/org/platform-config.git", revision: "main", path: "deploy/prod" };
const CLUSTER = { clusterName: "mara-prod", infraType: "kubeconfig" };

describe("ArgoCd refuses a literal source git or Argo CD would refuse", () => {
    const cases: [string, ConstructorParameters<typeof ArgoCd>[1], string][] = [
        ["a token in the URL", { source: { ...SOURCE, repoUrl: "https://x:ghp_secret@git.example.com/o/r.git" }, cluster: CLUSTER }, "ArgoCd: source.repoUrl holds a credential (a password in its user information (user:…@host)); give it as repository instead"],
        ["a scheme Argo CD does not clone", { source: { ...SOURCE, repoUrl: "git://git.example.com/o/r.git" }, cluster: CLUSTER }, 'ArgoCd: source.repoUrl uses the scheme "git://"'],
        ["a revision that is an option", { source: { ...SOURCE, revision: "--orphan" }, cluster: CLUSTER }, `ArgoCd: source.revision "--orphan" starts with '-'`],
        ["a folder outside the repository", { source: { ...SOURCE, path: "../other" }, cluster: CLUSTER }, `ArgoCd: source.path "../other" has a '..' segment`],
        ["an SSH key for an https URL", { source: SOURCE, cluster: CLUSTER, repository: { sshPrivateKey: pulumi.secret("k") } }, "ArgoCd: repository holds an SSH key, and source.repoUrl is an HTTP(S) URL"],
        ["a password for an SSH URL", { source: { ...SOURCE, repoUrl: "git@git.example.com:o/r.git" }, cluster: CLUSTER, repository: { password: pulumi.secret("p") } }, "ArgoCd: repository holds a password, and source.repoUrl is an SSH URL"],
        ["a password over plain http", { source: { ...SOURCE, repoUrl: "http://git.example.com/o/r.git" }, cluster: CLUSTER, repository: { password: pulumi.secret("p") } }, "would send in clear text"],
    ];
    for (const [name, args, message] of cases) {
        it(name, async () => {
            const { registrations } = await installMocks();
            expect(() => new ArgoCd("argocd", args)).toThrow(message);
            await settle();
            expect(registrations.filter((r) => r.custom)).toEqual([]);
        });
    }

    it("an Output source is checked by whoever made it; a fitting credential makes the repository Secret", async () => {
        const { registrations } = await installMocks();
        new ArgoCd("argocd", { source: pulumi.output(SOURCE), cluster: CLUSTER, repository: { password: pulumi.secret("p") } });
        await settle();
        expect(registrations.filter((r) => r.type === "kubernetes:core/v1:Secret").map((r) => r.name).sort()).toEqual(["argocd-cluster", "argocd-repository"]);
    });
});

describe("the cluster Secret", () => {
    it("is named and labelled as the API server allows, whatever the cluster's name", () => {
        for (const name of ["mara-prod", "Lab Cluster_01", "a".repeat(100), `${"b".repeat(62)}-c`, "---", "ünïcode.cluster", "x".repeat(62) + "_y"]) {
            const secret = clusterSecretManifest({ ...CLUSTER, clusterName: name, source: SOURCE }, "inCluster") as { metadata: { name: string; labels: Record<string, string> } };
            expect(kubernetesNameProblem(secret.metadata.name, "subdomain"), `${name} → ${secret.metadata.name}`).toBeUndefined();
            for (const value of Object.values(secret.metadata.labels)) expect(value, `${name}: ${value}`).toMatch(/^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/);
        }
        expect(clusterSecretName("Lab Cluster_01")).toBe("mara-cluster-lab-cluster-01");
        expect(clusterSecretName("---")).toBe("mara-cluster");
        // Cut to 63, then trimmed: never a '-' at the end.
        expect(asLabel(`${"b".repeat(62)}-c`)).toBe("b".repeat(62));
    });

    it("names the API server without a credential its kubeconfig's URL holds", () => {
        const kubeconfig = (server: string) => `apiVersion: v1\nkind: Config\ncurrent-context: c\ncontexts: [{name: c, context: {cluster: k}}]\nclusters: [{name: k, cluster: {server: "${server}"}}]\n`;
        expect(apiServerOf(kubeconfig("https://admin:s3cret-pass@api.example.com:6443")).server).toBe("https://api.example.com:6443");
        expect(apiServerOf(kubeconfig("https://api.example.com:6443/k8s/clusters/c-1?token=abc#x")).server).toBe("https://api.example.com:6443/k8s/clusters/c-1");
        expect(apiServerOf(kubeconfig("https://203.0.113.5:6443")).server).toBe("https://203.0.113.5:6443");
        expect(apiServerOf(kubeconfig("not a url")).server).toBeUndefined();
    });
});
