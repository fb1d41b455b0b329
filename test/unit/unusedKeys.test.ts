/**
 * A key of another infrastructure type does nothing on this stack: registry keys on AWS, VPC and EKS keys on an
 * existing cluster, a DigitalOcean token on AWS. Validation names every such key in one warning, with the types that
 * read it, and does not check its value (a value nothing reads is not an error). Keys the type reads, or that every
 * type reads, draw no such warning; nor do Pulumi.yaml's defaults, which the CLI passes to every stack.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { formatProblem, KEYS, KeySpec, validateConfig } from "../../config";
import { KUBECONFIG_TEXT, rawConfig, stackFile } from "../support/config";

const notUsed = (w: readonly string[]) => w.filter((x) => x.startsWith("Not used on this"));

describe("keys another infrastructure type reads", () => {
    it("registry keys, a DigitalOcean token and a Linode region on AWS: one warning, grouped by the types that read them", () => {
        const result = validateConfig(
            rawConfig(
                { "kubernetes:infra_type": "aws", "aws:region": "us-east-1", "mara:registryServer": "ghcr.io", "mara:registryUsername": "robot", "digitalocean:token": "dop_v1_x", "linode:region": "us-central" },
                { secret: ["digitalocean:token"] },
            ),
        );
        expect(result.problems).toEqual([]);
        expect(notUsed(result.warnings)).toEqual([
            "Not used on this aws stack, so their values are not checked and change nothing: digitalocean:token (read on digitalocean only); linode:region (read on linode only); " +
                "mara:registryServer, mara:registryUsername (read on linode and kubeconfig only). Remove them with pulumi config rm <key>, or keep them for a stack of the type that reads them.",
        ]);
    });

    it("VPC and EKS keys on an existing cluster", () => {
        const result = validateConfig(rawConfig({ "kubernetes:infra_type": "kubeconfig", "kubernetes:kubeconfig": KUBECONFIG_TEXT, "kic-helm:fqdn": "mara.example.com", "vpc:azs": '["us-east-1a","us-east-1b"]', "eks:min_size": "2", "mara:vpcCidr": "10.1.0.0/16" }));
        expect(result.problems).toEqual([]);
        expect(notUsed(result.warnings)).toEqual([
            "Not used on this kubeconfig stack, so their values are not checked and change nothing: mara:vpcCidr, vpc:azs, eks:min_size (read on aws only). Remove them with pulumi config rm <key>, or keep them for a stack of the type that reads them.",
        ]);
        // Nothing else is said about them: no rename advice for a key that does nothing.
        expect(result.warnings.filter((w) => w.includes("eks:min_size"))).toHaveLength(1);
    });

    it("a refused value of a key nothing reads is not an error", () => {
        const result = validateConfig(rawConfig({ "kubernetes:infra_type": "aws", "aws:region": "us-east-1", "linode:region": "!!", "docean:node_count": "many", "mara:registryServer": "https://x" }));
        expect(result.problems.map(formatProblem)).toEqual([]);
        expect(notUsed(result.warnings)[0]).toContain("linode:region (read on linode only)");
    });

    it("MARA's example file on AWS names the other clouds' sections and still validates", () => {
        const result = validateConfig(stackFile(fs.readFileSync(path.join(__dirname, "..", "fixtures", "Pulumi.mara-aws.yaml"), "utf8")));
        expect(result.problems.map(formatProblem)).toEqual([]);
        expect(notUsed(result.warnings)[0]).toMatch(/^Not used on this aws stack, so their values are not checked and change nothing: docean:k8s_version, docean:instance_size, docean:node_count, docean:region, digitalocean:container_registry_subscription_tier \(read on digitalocean only\); linode:k8s_version, linode:instance_type, linode:node_count, linode:region, linode:k8s_ha \(read on linode only\)/);
    });

    it("Pulumi.yaml's defaults, which every stack receives, are never named", () => {
        const result = validateConfig(stackFile("config:\n  kubernetes:infra_type: DO\n  kic-helm:fqdn: mara.example.com\n  digitalocean:token:\n    secure: AAECAwQFBgcICQoLDA0ODxAREhM=\n", { secrets: { "digitalocean:token": "t" } }));
        expect(result.problems.map(formatProblem)).toEqual([]);
        expect(notUsed(result.warnings)).toEqual([]);
    });

    it("every key that belongs to one type says which, and every other key is read everywhere", () => {
        const byType = Object.fromEntries((Object.entries(KEYS) as [string, KeySpec<unknown>][]).map(([id, s]) => [id, s.usedOn?.join(",") ?? "all"]));
        expect(byType).toMatchObject({ awsRegion: "aws", eksMinSize: "aws", doToken: "digitalocean", lkeRegion: "linode", kubeconfig: "kubeconfig", registryServer: "linode,kubeconfig", harborSoaEmail: "", ingressServiceType: "aws,digitalocean,linode,kubeconfig", fqdn: "all", siriusNamespace: "all" });
    });
});
