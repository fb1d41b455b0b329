/**
 * `mara destroy` applies the tear-down settings of the config before it destroys: the drain's delete
 * runs with the settings stored by the last `up`, so a `pulumi config set mara:retainVolumes true`
 * followed by `mara destroy` must first store the new setting (a targeted `pulumi up` of the drain and
 * the volume retention step), or the volumes would be deleted. Run against the stand-in `pulumi`.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DRAIN_TYPE, RETENTION_TYPE } from "../../cli/operation/teardownSettings";
import { Run, runMara } from "./support/io";
import { makeStandin, Standin, StandinStack, useStandinPath } from "./support/standin";

const DRAIN_URN = `urn:pulumi:dev::mara::${DRAIN_TYPE}::drain-drain`;
const RETAIN_URN = `urn:pulumi:dev::mara::${RETENTION_TYPE}::volume-retention-retain`;
const AWS: StandinStack["config"] = {
    "mara:infraType": { value: "aws", secret: false },
    "aws:region": { value: "us-east-1", secret: false },
};
const deployed = (retain: boolean, withRetention = true): StandinStack => ({
    config: { ...AWS },
    outputs: { infra_type: { value: "aws", secret: false } },
    resources: [
        { urn: "urn:pulumi:dev::mara::pulumi:pulumi:Stack::mara-dev", type: "pulumi:pulumi:Stack" },
        { urn: DRAIN_URN, type: "pulumi-nodejs:dynamic:Resource", inputs: { cloud: "aws", retainVolumes: retain, removeCrds: true, timeoutMinutes: 15 } },
        ...(withRetention ? [{ urn: RETAIN_URN, type: "pulumi-nodejs:dynamic:Resource", inputs: { retainVolumes: retain, namespaces: ["logstore"] } }] : []),
    ],
});

let s: Standin;
let restore: () => void;
beforeEach(() => {
    s = makeStandin({ current: "dev", stacks: { dev: deployed(false) } });
    s.addTool("aws", "exit 0");
    restore = useStandinPath(s);
});
afterEach(() => {
    restore();
    s.remove();
});

const mara = (argv: string[]): Promise<Run> => runMara(argv, { env: { HOME: s.home, PATH: s.path }, projectDir: s.projectDir });
const operations = () => s.calls().filter((c) => ["up", "destroy"].includes(c.args[0]!));
const setConfig = (key: string, value: string) => s.setState((st) => (st.stacks.dev!.config[key] = { value, secret: false }));

describe("mara destroy and the tear-down settings", () => {
    it("applies a changed mara:retainVolumes to the drain and the retention step, then destroys", async () => {
        setConfig("mara:retainVolumes", "true");
        const r = await mara(["destroy", "--yes"]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain("Tear-down settings changed since the last `pulumi up` (mara:retainVolumes: false → true); applying them before destroying:");
        const [up, destroy] = operations();
        expect(up!.args[0]).toBe("up");
        expect(up!.args.filter((_a, i) => up!.args[i - 1] === "--target")).toEqual([DRAIN_URN, RETAIN_URN]);
        expect(destroy!.args[0]).toBe("destroy");
    }, 120_000);

    it("names every changed setting, and runs no update when nothing changed", async () => {
        setConfig("mara:drainTimeoutMinutes", "30");
        setConfig("mara:removeCrds", "false");
        const changed = await mara(["destroy", "--yes"]);
        expect(changed.stderr).toContain("(mara:removeCrds: true → false, mara:drainTimeoutMinutes: 15 → 30)");

        s.setState((st) => (st.stacks.dev = deployed(false)));
        s.setState((st) => (st.stacks.dev!.config = { ...AWS }));
        const before = operations().length;
        const same = await mara(["destroy", "--yes"]);
        expect(same.code, same.stderr).toBe(0);
        expect(same.stderr).not.toContain("Tear-down settings changed");
        expect(operations().slice(before).map((c) => c.args[0])).toEqual(["destroy"]);
    }, 120_000);

    it("destroys nothing when the settings cannot be applied, or the config is invalid", async () => {
        setConfig("mara:retainVolumes", "true");
        s.setState((st) => (st.fail = { up: "error: kubeconfig: the server has asked for the client to provide credentials" }));
        const failed = await mara(["destroy", "--yes"]);
        expect(failed.code).toBe(1);
        expect(failed.stderr).toContain("could not apply the tear-down settings (the output is above), so nothing was destroyed");
        expect(operations().map((c) => c.args[0])).toEqual(["up"]);

        setConfig("mara:retainVolumes", "maybe");
        const invalid = await mara(["destroy", "--yes"]);
        expect(invalid.code).toBe(1);
        expect(invalid.stderr).toContain('mara:retainVolumes = "maybe"');
        expect(invalid.stderr).toContain("Fix it, or run `pulumi destroy`, which uses the settings of the last `pulumi up`.");
        expect(operations().map((c) => c.args[0])).toEqual(["up"]);
    });

    it("warns when the stack predates volume retention", async () => {
        s.setState((st) => (st.stacks.dev = deployed(true, false)));
        setConfig("mara:retainVolumes", "true");
        const r = await mara(["destroy", "--yes"]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain('stack "dev" was deployed before volume retention existed');
        expect(operations().map((c) => c.args[0])).toEqual(["destroy"]);
    });
});
