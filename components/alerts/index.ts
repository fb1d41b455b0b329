/** Alerting: Alertmanager's receivers and route tree, and the alert rules the platform ships (docs/alerts.md). */
export * from "./alertmanagerConfig";
export * from "./applicationRules";
export * from "./certificateRules";
export * from "./ingressRules";
export * from "./logstoreRules";
export * from "./receivers";
export * from "./rules";
