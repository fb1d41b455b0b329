import { describe, expect, it } from "vitest";
import { ENCRYPTED_PLACEHOLDER, parseStackFile } from "../../config";

describe("parseStackFile", () => {
    it("keeps scalars exactly as written, as the Pulumi CLI does", () => {
        const raw = parseStackFile("config:\n  eks:k8s_version: 1.30\n  eks:min_size: 03\n  kic-helm:enable_plus: no\n");
        expect(raw.values).toEqual({ "eks:k8s_version": "1.30", "eks:min_size": "03", "kic-helm:enable_plus": "no" });
    });

    it("stores lists and objects as JSON", () => {
        const raw = parseStackFile("config:\n  vpc:azs:\n    - us-east-1a\n    - us-east-1b\n  kic:nginx_plus:\n    kic:key_path: /k\n");
        expect(raw.values["vpc:azs"]).toBe('["us-east-1a","us-east-1b"]');
        expect(JSON.parse(raw.values["kic:nginx_plus"]!)).toEqual({ "kic:key_path": "/k" });
    });

    it("writes a mapping's keys sorted, nested ones too, as the CLI hands them to the program (Go's JSON)", () => {
        const raw = parseStackFile("config:\n  kic:nginx_plus:\n    kic:key_path: /k\n    kic:cert_path: /c\n    z: { b: v, a: [ { y: w, x: u } ] }\n");
        expect(raw.values["kic:nginx_plus"]).toBe('{"kic:cert_path":"/c","kic:key_path":"/k","z":{"a":[{"x":"u","y":"w"}],"b":"v"}}');
    });

    it("marks encrypted values as secret and uses given plain values", () => {
        const text = "config:\n  mara:grafanaAdminPassword:\n    secure: v1:abc\n  sirius:ledger_pwd:\n    secure: v1:def\n";
        const raw = parseStackFile(text, { secrets: { "mara:grafanaAdminPassword": "pw" } });
        expect([...raw.secretKeys].sort()).toEqual(["mara:grafanaAdminPassword", "sirius:ledger_pwd"]);
        expect(raw.values["mara:grafanaAdminPassword"]).toBe("pw");
        expect(raw.values["sirius:ledger_pwd"]).toBe(ENCRYPTED_PLACEHOLDER);
    });

    it("files keys without a namespace under the project and normalises proj:config:key", () => {
        const raw = parseStackFile("config:\n  nodeCount: 3\n  mara:config:eksMinSize: 2\n", { project: "mara" });
        expect(raw.values).toEqual({ "mara:nodeCount": "3", "mara:eksMinSize": "2" });
    });

    it("accepts a file without config and rejects one whose config is not a mapping", () => {
        expect(parseStackFile("encryptionsalt: abc\n").values).toEqual({});
        expect(() => parseStackFile("config:\n  - a\n")).toThrow("The stack file's `config` section is not a mapping of keys to values.");
    });
});
