/** How the drain reads errors of the three clouds' clients: transient, already gone, or not fixable by a retry. */
import { describe, expect, it } from "vitest";
import { classify, HttpStatusError, parseRetryAfter, retryAfterMs } from "../../../components/drain/faults";
import { ec2Error } from "../../aws-emulator/gaps";

/* eslint-disable @typescript-eslint/no-require-imports */
const { AccessPointNotFoundException } = require("@aws-sdk/client-elastic-load-balancing") as { AccessPointNotFoundException: new (o: object) => Error };
const { LoadBalancerNotFoundException } = require("@aws-sdk/client-elastic-load-balancing-v2") as { LoadBalancerNotFoundException: new (o: object) => Error };
/* eslint-enable @typescript-eslint/no-require-imports */

/** An error as axios (under @linode/api-v4) raises it for an HTTP answer. */
const axiosError = (status: number, headers: Record<string, string> = {}) => Object.assign(new Error(`Request failed with status code ${status}`), { name: "AxiosError", response: { status, headers, data: { errors: [{ reason: "x" }] } } });

describe("classify", () => {
    it.each([
        ["EC2 RequestLimitExceeded (503)", ec2Error("RequestLimitExceeded", "Request limit exceeded.", 503)],
        ["EC2 throttling without a 5xx status", ec2Error("RequestLimitExceeded", "Request limit exceeded.", 400)],
        ["ELB Throttling (400)", ec2Error("Throttling", "Rate exceeded", 400)],
        ["an AWS 500 InternalError", ec2Error("InternalError", "An internal error has occurred", 500)],
        ["Linode 429", axiosError(429, { "retry-after": "5" })],
        ["Linode 502", axiosError(502)],
        ["DigitalOcean 503", new HttpStatusError("503", 503)],
        ["DigitalOcean 429", new HttpStatusError("429", 429, 1_000)],
        ["a reset connection under fetch", Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNRESET" } })],
        ["a socket timeout", Object.assign(new Error("connect ETIMEDOUT 203.0.113.1:443"), { code: "ETIMEDOUT" })],
    ])("%s is transient", (_name, e) => {
        expect(classify(e)).toBe("transient");
    });

    it.each([
        ["EC2 InvalidVolume.NotFound", ec2Error("InvalidVolume.NotFound", "The volume 'vol-1' does not exist.")],
        ["EC2 InvalidGroup.NotFound", ec2Error("InvalidGroup.NotFound", "The security group 'sg-1' does not exist")],
        ["classic ELB LoadBalancerNotFound (the SDK's AccessPointNotFoundException)", new AccessPointNotFoundException({ $metadata: { httpStatusCode: 400 }, message: "There is no ACTIVE Load Balancer named 'x'" })],
        ["ELBv2 LoadBalancerNotFoundException", new LoadBalancerNotFoundException({ $metadata: { httpStatusCode: 400 }, message: "One or more load balancers not found" })],
        ["Linode 404", axiosError(404)],
        ["DigitalOcean 404", new HttpStatusError("404", 404)],
    ])("%s means already gone", (_name, e) => {
        expect(classify(e)).toBe("gone");
    });

    it.each([
        ["EC2 AuthFailure", ec2Error("AuthFailure", "AWS was not able to validate the provided access credentials", 401)],
        ["EC2 UnauthorizedOperation", ec2Error("UnauthorizedOperation", "You are not authorized to perform this operation.", 403)],
        // Not transient and not gone: the drain retries a refused delete on its next round, but a list refused like this fails.
        ["EC2 DependencyViolation", ec2Error("DependencyViolation", "resource sg-1 has a dependent object")],
        ["Linode 401", axiosError(401)],
        ["DigitalOcean 403", new HttpStatusError("403", 403)],
        ["a bug", new TypeError("Cannot read properties of undefined (reading 'map')")],
    ])("%s is not fixed by a retry", (_name, e) => {
        expect(classify(e)).toBe("fatal");
    });
});

describe("Retry-After", () => {
    it("reads seconds and HTTP dates, from every client's error shape", () => {
        const now = Date.parse("2026-01-01T00:00:00Z");
        expect(parseRetryAfter("7", now)).toBe(7_000);
        expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
        expect(parseRetryAfter("Wed, 31 Dec 2025 23:59:00 GMT", now)).toBe(0);
        expect(parseRetryAfter("soon", now)).toBeUndefined();
        expect(parseRetryAfter(null, now)).toBeUndefined();
        expect(retryAfterMs(axiosError(429, { "retry-after": "3" }), now)).toBe(3_000);
        expect(retryAfterMs(new HttpStatusError("429", 429, 12_000), now)).toBe(12_000);
        expect(retryAfterMs(new HttpStatusError("503", 503), now)).toBeUndefined();
    });
});
