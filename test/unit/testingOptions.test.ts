/**
 * `mara-platform/testing`'s options, as a JavaScript test (no type checks) may pass them: a misspelt option or a value
 * of the wrong kind is refused before any mock is installed, naming the option and what it takes, and never quoting a
 * value (configuration values may be secrets).
 */
import { describe, expect, it } from "vitest";
import { installMocks } from "../../testing";

const refused = async (options: unknown) => {
    const error = await installMocks(options as never).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
};

describe("installMocks's options", () => {
    it("refuses a misspelt option, listing the options", async () => {
        expect(await refused({ secretkeys: ["a:b"] })).toBe(
            'installMocks: there is no option "secretkeys"; the options are preview, engineUrns, project, stack, config, secretKeys, outputs, invokes.',
        );
    });

    it.each([
        [{ preview: "yes" }, 'option "preview" must be true or false; got a string'],
        [{ engineUrns: 1 }, 'option "engineUrns" must be true or false; got a number'],
        [{ project: "" }, 'option "project" must be a non-empty string; got a string'],
        [{ stack: ["dev"] }, 'option "stack" must be a non-empty string; got a list'],
        [{ config: { "app:port": 8080 } }, 'option "config" must be an object of `namespace:key` → string, as `pulumi config` stores every value; got an object of another shape'],
        [{ config: ["app:port"] }, 'option "config" must be an object of `namespace:key` → string, as `pulumi config` stores every value; got a list'],
        [{ secretKeys: "app:token" }, 'option "secretKeys" must be a list of configuration keys (strings); got a string'],
        [{ outputs: {} }, 'option "outputs" must be a function; got an object of another shape'],
        [{ invokes: null }, 'option "invokes" must be a function; got null'],
    ])("refuses %j", async (options, message) => {
        expect(await refused(options)).toContain(message);
    });

    it("refuses options that are not an object", async () => {
        expect(await refused("dev")).toContain("the options must be an object");
        expect(await refused(null)).toContain("got null");
    });

    it("never quotes a configuration value", async () => {
        expect(await refused({ config: { "app:token": { secure: "s3cret-token" } } })).not.toContain("s3cret-token");
    });

    it("takes undefined for any option, and none at all", async () => {
        await expect(installMocks({ preview: undefined, engineUrns: undefined, config: { "app:a": "b" }, secretKeys: ["app:a"] })).resolves.toHaveProperty("registrations");
        await expect(installMocks()).resolves.toHaveProperty("calls");
    });
});
