import { describe, expect, it } from "vitest";
import { boolean, fqdn, integer, ipv4Cidr, list, oneOf, text } from "../../config/valueTypes";
import { imageReferenceProblem } from "../../contracts";
import { availabilityZoneProblem } from "../../config/zones";
import { closest } from "../../config/suggest";

describe("value types", () => {
    it("integer parses whole numbers only and explains rejections", () => {
        const t = integer(0, 10);
        expect(t.parse(" 7 ")).toEqual({ ok: true, value: 7 });
        expect(t.parse("7.0")).toEqual({ ok: false, reason: "is not a whole number" });
        expect(t.parse("-1")).toEqual({ ok: false, reason: "is negative" });
        expect(t.parse("11")).toEqual({ ok: false, reason: "is above the maximum of 10" });
        expect(t.parse("0x10")).toEqual({ ok: false, reason: "is not a number" });
    });

    it("boolean accepts MARA's spellings", () => {
        for (const v of ["true", "Yes", "y", "1", "on"]) expect(boolean().parse(v)).toEqual({ ok: true, value: true });
        for (const v of ["false", "No", "n", "0", "off"]) expect(boolean().parse(v)).toEqual({ ok: true, value: false });
        expect(boolean().parse("maybe").ok).toBe(false);
    });

    it("oneOf maps synonyms to canonical values", () => {
        const t = oneOf(["aws", "linode"] as const, { LKE: "linode" });
        expect(t.parse("lke")).toEqual({ ok: true, value: "linode" });
        expect(t.allowed).toBe('one of "aws", "linode", "LKE"');
    });

    it("list parses JSON arrays and comma lists, checking each entry", () => {
        const t = list(text({ pattern: /^[a-z]+$/ }));
        expect(t.parse('["a","b"]')).toEqual({ ok: true, value: ["a", "b"] });
        expect(t.parse("a, b")).toEqual({ ok: true, value: ["a", "b"] });
        expect(t.parse('["a", 1]')).toEqual({ ok: false, reason: "has an entry that is not text (1)" });
        expect(t.parse('["A"]')).toEqual({ ok: false, reason: 'has an entry "A" that has the wrong form' });
    });

    it("fqdn needs a dotted host name", () => {
        expect(fqdn().parse("Mara.Example.com.")).toEqual({ ok: true, value: "mara.example.com" });
        expect(fqdn().parse("localhost").ok).toBe(false);
        expect(fqdn().parse("bad_name.example.com").ok).toBe(false);
    });

    it("ipv4Cidr requires a network address of the allowed size", () => {
        const t = ipv4Cidr(16, 16);
        expect(t.parse("10.100.0.0/16").ok).toBe(true);
        expect(t.parse("10.100.1.0/16")).toEqual({ ok: false, reason: "has host bits set (not a network address)" });
        expect(t.parse("10.100.0.0/20")).toEqual({ ok: false, reason: "has prefix /20" });
        expect(t.parse("10.300.0.0/16")).toEqual({ ok: false, reason: "is not an IPv4 CIDR block" });
    });

    it("image references follow the distribution grammar", () => {
        expect(imageReferenceProblem("registry.example.com:5000/team/app:v1.2")).toBeUndefined();
        expect(imageReferenceProblem("registry.example.com:port/app:1")).toBe('has an invalid registry port "port"');
        expect(imageReferenceProblem("nginx/nginx-ingress:bad tag")).toBe("contains white space");
        expect(imageReferenceProblem(`app:${"x".repeat(129)}`)).toMatch(/^has an invalid tag/);
    });
});

describe("availability zone names", () => {
    it.each([
        ["us-east-1a", "us-east-1", undefined],
        ["us-east-1-bos-1a", "us-east-1", undefined],
        ["us-west-1a", "us-east-1", "is in region us-west-1, not us-east-1"],
        ["us-east-12a", "us-east-1", "is not a zone of region us-east-1"],
        ["use1-az1", "us-east-1", "is not a zone of region us-east-1"],
    ])("%s in %s", (az, region, problem) => {
        expect(availabilityZoneProblem(az, region)).toBe(problem);
    });
});

describe("suggestions", () => {
    it("proposes close keys and nothing for unrelated input", () => {
        expect(closest("eks:min_sise", ["eks:min_size", "eks:max_size"])).toBe("eks:min_size");
        expect(closest("completely-different", ["eks:min_size"])).toBeUndefined();
    });
});
