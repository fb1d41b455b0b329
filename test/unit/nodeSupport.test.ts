/** The supported Node.js range (contracts/nodeSupport.ts): package.json's "engines", read as npm reads it. */
import * as fs from "fs";
import * as path from "path";
import * as semver from "semver";
import { describe, expect, it } from "vitest";
import { describeNodeRange, parseRange, satisfiesNode, SUPPORTED_NODE, unsupportedNodeMessage } from "../../contracts/nodeSupport";

const ROOT = path.join(__dirname, "..", "..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { engines: { node: string } };

describe("the supported Node.js versions", () => {
    it("are package.json's engines, and the pinned toolchain is one of them", () => {
        expect(SUPPORTED_NODE).toBe(pkg.engines.node);
        const toolchain = JSON.parse(fs.readFileSync(path.join(ROOT, ".toolchain", "package.json"), "utf8")) as { dependencies: { node: string } };
        expect(satisfiesNode(toolchain.dependencies.node)).toBe(true);
    });

    it("are judged as npm judges the range, at every boundary", () => {
        const versions = ["18.20.0", "20.20.2", "22.0.0", "22.22.1", "22.22.2", "22.22.3", "22.23.0", "22.99.99", "23.0.0", "23.11.1", "24.0.0", "24.14.9", "24.15.0", "24.21.0", "25.0.0", "26.3.1"];
        for (const v of versions) expect(satisfiesNode(v), v).toBe(semver.satisfies(v, pkg.engines.node));
        expect(satisfiesNode("v24.21.0")).toBe(true);
        expect(satisfiesNode("not a version")).toBe(false);
    });

    it("are said in words", () => {
        expect(describeNodeRange()).toBe("22.22.2 or a later 22.x, or 24.15.0 or later");
        expect(describeNodeRange(">=24.0.0")).toBe("24.0.0 or later");
    });

    it("refuse a range they cannot read, so a change to engines fails here rather than being misread", () => {
        expect(() => parseRange("^22.22.2 || 24.x")).toThrow('unsupported Node.js range "24.x" in "^22.22.2 || 24.x": use alternatives of ^X.Y.Z or >=X.Y.Z');
        expect(() => parseRange("~22.22.2")).toThrow("unsupported Node.js range");
    });
});

describe("the line an unsupported Node.js gets", () => {
    it("names the running Node.js, where it was found, what is supported and the command to run", () => {
        expect(unsupportedNodeMessage("mara", "20.20.2", "/usr/bin/node")).toBe(
            'mara: Node.js 20.20.2 (/usr/bin/node) is not supported; use Node.js 22.22.2 or a later 22.x, or 24.15.0 or later (package.json "engines"). Run: . .toolchain/activate',
        );
        expect(unsupportedNodeMessage("mara", "22.22.1", "/opt/node")).toContain("Node.js 22.22.1 (/opt/node) is not supported");
    });

    it("is nothing on a supported Node.js", () => {
        expect(unsupportedNodeMessage("mara", "22.22.2", "/x")).toBeUndefined();
        expect(unsupportedNodeMessage("mara", "24.15.0", "/x")).toBeUndefined();
        expect(unsupportedNodeMessage("mara")).toBeUndefined();
    });
});
