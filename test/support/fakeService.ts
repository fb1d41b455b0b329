/**
 * A Service as the fake Kubernetes API stores it (fakeClouds.ts), in its own module because the fake clouds'
 * load-balancer controllers (fakeDigitalOcean.ts, fakeLinode.ts) read it too, and fakeClouds.ts re-exports them.
 */
/** A Service as the fake stores it. */
export interface FakeService {
    namespace: string;
    name: string;
    type: "LoadBalancer" | "ClusterIP";
    ips?: string[];
    hostnames?: string[];
    annotations?: Record<string, string>;
}
