/**
 * Faults a test injects into AWS calls, above the SDK client that talks to moto: they stand for what
 * reaches the drain after the SDK's own retries gave up (throttling, a 5xx), or for something another
 * party does between two of the drain's calls (a load balancer deleted between its listing and its tags).
 */
import { ec2Error } from "./gaps";
import type { Send } from "./send";

/** What happens to a matching call: run before it is sent; throw to fail it. */
export type FaultAction = (input: Record<string, unknown>) => void | Promise<void>;

/** EC2's throttling answer ([Request throttling](https://docs.aws.amazon.com/ec2/latest/devguide/ec2-api-throttling.html): `RequestLimitExceeded`, HTTP 503). */
export const throttled: FaultAction = () => {
    throw ec2Error("RequestLimitExceeded", "Request limit exceeded.", 503);
};

/** A 503 `ServiceUnavailable` ([common errors](https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html)). */
export const unavailable: FaultAction = () => {
    throw ec2Error("ServiceUnavailable", "The request has failed due to a temporary failure of the server.", 503);
};

/** Refused credentials: no retry fixes this. */
export const authFailure: FaultAction = () => {
    throw ec2Error("AuthFailure", "AWS was not able to validate the provided access credentials", 401);
};

/** Faults keyed by `api:Command`, each for a number of calls. */
export class InjectedFaults {
    private readonly rules: { key: string; left: number; act: FaultAction }[] = [];

    /** The next `times` calls of `key` (`"ec2:DescribeNetworkInterfaces"`) run `act` first. */
    on(key: string, times: number, act: FaultAction): this {
        this.rules.push({ key, left: times, act });
        return this;
    }

    /** How many faults of `key` are still to come (0 once every one has struck). */
    pending(key: string): number {
        return this.rules.filter((r) => r.key === key).reduce((n, r) => n + r.left, 0);
    }

    /** `next` with the faults in front. */
    wrap(next: Send): Send {
        return async (api, command, input) => {
            const rule = this.rules.find((r) => r.key === `${api}:${command}` && r.left > 0);
            if (rule) {
                rule.left--;
                await rule.act(input);
            }
            return next(api, command, input);
        };
    }
}
