/**
 * `mara outdated`'s comparison of a pin with what its repository lists: SemVer order, not string order;
 * pre-releases only for pre-release pins; image tags only within their family (prefix, component count,
 * variant suffix), so floating and variant tags never make a pin look outdated.
 */
import { describe, expect, it } from "vitest";
import { compareWithAvailable, parseVersion } from "../../cli/outdated/versions";

describe("chart versions", () => {
    it("finds the newest stable version, by SemVer order rather than string order", () => {
        expect(compareWithAvailable("2.6.4", ["2.6.3", "2.6.4", "2.6.9", "2.6.10", "2.7.0-rc.1"], "chart")).toEqual({
            latest: "2.6.10",
            latestInMajor: "2.6.10",
            update: "patch",
            newerMajor: false,
            pinnedListed: true,
        });
    });

    it("ignores pre-releases when the pin is a release", () => {
        const c = compareWithAvailable("2.6.4", ["2.6.4", "3.0.0-beta.1", "2.6.5-rc.1"], "chart");
        expect(c).toMatchObject({ latest: "2.6.4", update: "none", newerMajor: false });
    });

    it("counts pre-releases when the pin is one, and reports its release", () => {
        expect(compareWithAvailable("3.0.0-beta.1", ["2.6.4", "3.0.0-beta.1", "3.0.0-beta.2"], "chart")).toMatchObject({ latest: "3.0.0-beta.2", update: "prerelease" });
        expect(compareWithAvailable("3.0.0-beta.1", ["3.0.0-beta.1", "3.0.0-beta.2", "3.0.0"], "chart")).toMatchObject({ latest: "3.0.0", update: "release", newerMajor: false });
        expect(compareWithAvailable("3.0.0-rc.2", ["3.0.0-rc.10", "3.0.0-rc.2"], "chart")).toMatchObject({ latest: "3.0.0-rc.10" });
    });

    it("says whether a newer major is out: the next major counts, the highest minor of the same major does not", () => {
        expect(compareWithAvailable("88.5.3", ["88.5.3", "89.0.0"], "chart")).toMatchObject({ latest: "89.0.0", latestInMajor: "88.5.3", update: "major", newerMajor: true });
        expect(compareWithAvailable("88.5.3", ["88.5.3", "88.99.99"], "chart")).toMatchObject({ latest: "88.99.99", update: "minor", newerMajor: false });
        expect(compareWithAvailable("88.5.3", ["87.0.0", "88.5.3"], "chart")).toMatchObject({ latest: "88.5.3", update: "none", newerMajor: false });
    });

    it("keeps a leading v as its own family (cert-manager's versions all have one)", () => {
        expect(compareWithAvailable("v1.21.1", ["v1.21.1", "v1.22.0", "1.30.0"], "chart")).toMatchObject({ latest: "v1.22.0", update: "minor" });
    });

    it("notices a pin the repository does not list (removed, mistyped, or a lagging mirror)", () => {
        expect(compareWithAvailable("8.2.0", ["8.1.0", "8.3.0"], "chart")).toMatchObject({ latest: "8.3.0", pinnedListed: false });
        expect(compareWithAvailable("8.2.0", [], "chart")).toEqual({ latest: undefined, latestInMajor: undefined, update: "none", newerMajor: false, pinnedListed: false });
    });

    it("treats a pin newer than anything listed as current", () => {
        expect(compareWithAvailable("2.0.0", ["1.9.0"], "chart")).toMatchObject({ latest: "1.9.0", update: "none", pinnedListed: false });
    });

    it("ignores build metadata for order", () => {
        expect(compareWithAvailable("1.2.3+build.1", ["1.2.3+build.1", "1.2.3+build.2"], "chart")).toMatchObject({ update: "none" });
    });

    it("rejects what Helm would not accept as a version", () => {
        expect(parseVersion("1.2.3beta", "chart")).toBeUndefined();
        expect(parseVersion("latest", "chart")).toBeUndefined();
        expect(parseVersion("1.2.3-", "chart")).toBeUndefined();
    });
});

describe("image tags", () => {
    it("never compares a tag with floating, variant, word or commit tags", () => {
        const tags = ["5.5.3", "5.5.4", "5.5.4-ubi", "5.6.0-ubi", "5.6.0-alpine", "5.6.0-alpine-fips", "edge", "latest", "5", "5.6", "sha-1a2b3c4", "20260101"];
        expect(compareWithAvailable("5.5.4", tags, "image")).toMatchObject({ latest: "5.5.4", update: "none", pinnedListed: true });
    });

    it("compares a variant tag with its own variant", () => {
        expect(compareWithAvailable("5.5.4-ubi", ["5.5.4-ubi", "5.6.0-ubi", "5.7.0", "5.7.0-alpine"], "image")).toMatchObject({ latest: "5.6.0-ubi", update: "minor" });
    });

    it("orders the numbers inside a variant suffix numerically (Bitnami's -debian-12-rN)", () => {
        const tags = ["16.4.0-debian-12-r3", "16.4.0-debian-12-r4", "16.4.0-debian-12-r10", "17.0.0-debian-12-r0"];
        expect(compareWithAvailable("16.4.0-debian-12-r3", tags, "image")).toMatchObject({
            latest: "17.0.0-debian-12-r0",
            latestInMajor: "16.4.0-debian-12-r10",
            update: "major",
            newerMajor: true,
        });
        expect(compareWithAvailable("16.4.0-debian-12-r3", tags.slice(0, 3), "image")).toMatchObject({ latest: "16.4.0-debian-12-r10", update: "revision" });
    });

    it("treats -rc, -beta and -alpha tags as pre-releases, not as variants", () => {
        expect(compareWithAvailable("0.158.0", ["0.158.0", "0.159.0-rc.1", "0.159.0-beta2"], "image")).toMatchObject({ latest: "0.158.0", update: "none" });
        expect(parseVersion("0.159.0-rc.1", "image")).toMatchObject({ prerelease: true, family: "3" });
        expect(parseVersion("5.6.0-alpine", "image")).toMatchObject({ prerelease: false, family: "3-alpine" });
    });

    it("keeps v-prefixed tags apart from bare ones (bos images are v1.3.0)", () => {
        expect(compareWithAvailable("v1.3.0", ["v1.3.0", "v1.3.1", "1.9.0", "latest"], "image")).toMatchObject({ latest: "v1.3.1", update: "patch" });
    });

    it("reads calendar tags with leading zeros", () => {
        expect(compareWithAvailable("2024.01.05", ["2024.01.05", "2024.02.01", "2024.1.9"], "image")).toMatchObject({ latest: "2024.02.01" });
    });

    it("has nothing to compare for a pin that is not a version", () => {
        expect(compareWithAvailable("latest", ["latest", "1.0.0"], "image")).toBeUndefined();
        expect(compareWithAvailable("sha-1a2b3c4", ["1.0.0"], "image")).toBeUndefined();
        expect(parseVersion("1.2.3abc", "image")).toBeUndefined();
    });
});
