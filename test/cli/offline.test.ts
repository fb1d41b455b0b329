/** The offline runner (offline/run.ts) on a small program: what it records, and what it leaves as it found. */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { runOffline } from "../../offline/run";
import { rawConfig } from "../support/config";

/** Concrete subclasses: the SDK's base classes are abstract. */
class Provider extends pulumi.ProviderResource {}
class Thing extends pulumi.CustomResource {
    constructor(name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
        super("test:index:Thing", name, props, opts);
    }
}

class Group extends pulumi.ComponentResource {
    constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
        super("test:x:Group", name, {}, opts);
        this.registerOutputs({});
    }
}

describe("runOffline", () => {
    it("runs the program as a dry run and records parents, providers and dependencies", async () => {
        const seen: Record<string, unknown> = {};
        const run = await runOffline(rawConfig({ "mara:thing": "v" }, { env: { MARA_OFFLINE_TEST: "yes" } }), () => {
            seen.dryRun = pulumi.runtime.isDryRun();
            seen.config = new pulumi.Config("mara").get("thing");
            seen.env = process.env.MARA_OFFLINE_TEST;
            const provider = new Provider("test", "p", {});
            const group = new Group("g");
            const first = new Thing("first", { size: 1 }, { parent: group, provider });
            new Thing("second", { from: first.id }, { parent: group, provider, dependsOn: [provider] });
            void pulumi.log.warn("careful"); // as a program does: the SDK keeps the run open until the message is sent
        });
        expect(run.error).toBeUndefined();
        expect(seen).toEqual({ dryRun: true, config: "v", env: "yes" });
        expect(process.env.MARA_OFFLINE_TEST).toBeUndefined();
        const byName = Object.fromEntries(run.resources.map((r) => [r.name, r]));
        expect(Object.keys(byName).sort()).toEqual(["first", "g", "p", "second"]);
        expect(byName.first).toMatchObject({ type: "test:index:Thing", parent: byName.g!.urn, custom: true, provider: byName.p!.urn });
        expect(byName.second!.dependencies).toEqual(expect.arrayContaining([byName.first!.urn, byName.p!.urn]));
        expect(byName.g).toMatchObject({ custom: false, remote: false, parent: "" });
        expect(run.logs).toEqual([{ severity: "warn", message: "careful" }]);
    });

    it("answers the cloud lookups from the simulated cloud the tests use, and notes the ones it does not know", async () => {
        let zones: unknown;
        const run = await runOffline(rawConfig({ "aws:region": "eu-west-1" }), () => {
            void pulumi.runtime.invoke("aws:index/getAvailabilityZones:getAvailabilityZones", {}).then((r) => (zones = (r as { names: string[] }).names));
            void pulumi.runtime.invoke("aws:index/getCallerIdentity:getCallerIdentity", {});
        });
        // eu-west-1's three zones, as the tests' and the benchmarks' mocks answer.
        expect(zones).toEqual(["eu-west-1a", "eu-west-1b", "eu-west-1c"]);
        expect(run.unansweredInvokes).toEqual(["aws:index/getCallerIdentity:getCallerIdentity"]);
    });

    it("returns what the program threw instead of throwing", async () => {
        const run = await runOffline(rawConfig({}), () => {
            throw new Error("bad config");
        });
        expect((run.error as Error).message).toBe("bad config");
    });
});
