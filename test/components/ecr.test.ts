import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { Ecr, validateEcrArgs } from "../../components";
import { awsProvider } from "../support/aws";
import { find, installMocks, promiseOf, Registration, settle } from "../support/mocks";

describe("Ecr", () => {
    let regs: Registration[];
    let ecr: Ecr;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        ecr = new Ecr("ecr", { repositoryName: "ingress-controller-dev", imageRetention: 7 }, { providers: [awsProvider("eu-west-1")] });
        await settle();
    });

    it("creates a repository that destroy can delete with its images, scanning each push", () => {
        expect(find(regs, "aws:ecr/repository:Repository", "ecr-repository").inputs).toMatchObject({
            name: "ingress-controller-dev",
            forceDelete: true,
            imageTagMutability: "MUTABLE",
            imageScanningConfiguration: { scanOnPush: true },
        });
    });

    it("expires all but the newest images", () => {
        const policy = JSON.parse(find(regs, "aws:ecr/lifecyclePolicy:LifecyclePolicy", "ecr-lifecycle").inputs!.policy as string);
        expect(policy.rules[0]).toMatchObject({ selection: { tagStatus: "any", countType: "imageCountMoreThan", countNumber: 7 }, action: { type: "expire" } });
    });

    it("exports the repository URL and secret push credentials for the registry host", async () => {
        expect(await promiseOf(ecr.repositoryUrl)).toBe("123456789012.dkr.ecr.eu-west-1.amazonaws.com/ingress-controller-dev");
        expect(await pulumi.isSecret(ecr.credentials)).toBe(true);
        expect(await promiseOf(ecr.credentials)).toEqual({ server: "123456789012.dkr.ecr.eu-west-1.amazonaws.com", username: "AWS", password: "ecr-push-token" });
    });
});

describe("Ecr argument checks", () => {
    it.each([
        ["Ingress", 10, 'Ecr: repositoryName "Ingress" is not a valid ECR name (lower-case letters, digits, \'._-/\', 2–256 characters).'],
        ["ok-name", 0, "Ecr: imageRetention must be a whole number of images, at least 1; got 0."],
    ])("rejects %s / %d", (name, keep, message) => {
        expect(() => validateEcrArgs(name, keep)).toThrow(message);
    });
});
