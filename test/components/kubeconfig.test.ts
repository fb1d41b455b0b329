import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { Kubeconfig } from "../../components";
import { find, installMocks, isWrappedSecret, promiseOf, Registration, settle } from "../support/mocks";

describe("Kubeconfig", () => {
    let regs: Registration[];
    let kc: Kubeconfig;
    let nodes: aws.eks.NodeGroup;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        const provider = new aws.Provider("aws", { region: "us-east-1" });
        nodes = new aws.eks.NodeGroup("nodes", { clusterName: "c", nodeRoleArn: "arn", subnetIds: ["s"], scalingConfig: { minSize: 1, maxSize: 1, desiredSize: 1 } }, { provider });
        kc = new Kubeconfig("kc", { kubeconfig: '{"apiVersion":"v1"}', clusterName: "c", context: "admin", waitFor: [nodes] });
        await settle();
    });

    it("builds the Kubernetes provider from the kubeconfig, treated as a secret", () => {
        const p = find(regs, "pulumi:providers:kubernetes", "kc-provider");
        expect(isWrappedSecret(p.inputs!.kubeconfig)).toBe(true);
        expect(p.inputs).toMatchObject({ context: "admin", clusterIdentifier: "c" });
    });

    it("updates Secrets in place (a rotated password must not delete and re-create the Secret and every workload using it)", () => {
        expect(find(regs, "pulumi:providers:kubernetes", "kc-provider").inputs?.enableSecretMutable).toBe("true");
    });

    it("makes the provider wait for the resources it is given, so every Kubernetes object does", async () => {
        expect(find(regs, "pulumi:providers:kubernetes", "kc-provider").dependencies).toContain(await promiseOf(nodes.urn));
    });

    it("exports the kubeconfig as a secret", async () => {
        expect(await pulumi.isSecret(kc.kubeconfig)).toBe(true);
        expect(await promiseOf(kc.clusterName)).toBe("c");
    });
});
