/*
 * Preloaded (node -r) into Pulumi's dynamic-provider host in tests, so the serialized drain reaches fake
 * clouds instead of real ones. Plain JavaScript on purpose: the host must run without any TypeScript
 * loader, exactly as Pulumi starts it. It replaces only @linode/api-v4 by a stand-in that forwards each
 * call over HTTP to the test process, and DigitalOcean's API host for fetch; the AWS SDK is the real one,
 * talking to moto (AWS_ENDPOINT_URL), and so is the Kubernetes client, talking to a fake API server.
 */
"use strict";
const Module = require("module");

const url = process.env.MARA_FAKE_CLOUD_URL;
if (!url) throw new Error("cloudShim: MARA_FAKE_CLOUD_URL is not set");
const realFetch = globalThis.fetch;

async function rpc(path, payload) {
    const res = await realFetch(`${url}${path}`, { method: "POST", body: JSON.stringify(payload), headers: { "content-type": "application/json" } });
    const body = await res.json();
    if (body.error) throw Object.assign(new Error(body.error.message), body.error);
    return body.result;
}

const linode = new Proxy(
    {},
    {
        get(_target, name) {
            if (name === "setToken") return (token) => void rpc("/linode", { name: "setToken", args: [token] }).catch(() => undefined);
            if (typeof name !== "string") return undefined;
            return (...args) => rpc("/linode", { name, args });
        },
    },
);

const load = Module._load;
Module._load = function (request, parent, isMain) {
    if (request === "@linode/api-v4") return linode;
    return load.call(this, request, parent, isMain);
};

globalThis.fetch = async (input, init = {}) => {
    const target = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!target.startsWith("https://api.digitalocean.com/")) return realFetch(input, init);
    const headers = new Headers(init.headers);
    const r = await rpc("/do", { method: init.method || "GET", url: target, authorization: headers.get("authorization") });
    return new Response(r.body === undefined ? null : JSON.stringify(r.body), { status: r.status, headers: { "content-type": "application/json", ...(r.headers || {}) } });
};
