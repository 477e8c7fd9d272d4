/**
 * Questions with no answer in the coding eval's corpus, written by hand: work a developer might well ask about in
 * that workspace but that none of its sessions did. The eval checks that no event of the workspace holds every
 * content word of any of them (check-set.ts).
 */

/** One question with no answer. */
export interface AbsentQuestion {
	text: string;
	cwd: string;
}

const ws = (name: string) => `/home/dev/${name}`;

export const ABSENT_QUESTIONS: AbsentQuestion[] = [
	{ cwd: ws("minsky"), text: "remind me how we fixed the stripe webhook signature mismatch" },
	{ cwd: ws("minsky"), text: "what did the kubernetes liveness probe print when the pod kept restarting?" },
	{ cwd: ws("minsky"), text: "pull up the task about the graphql federation gateway" },
	{ cwd: ws("minsky"), text: "which file did we change for the android gradle signing config" },
	{ cwd: ws("twat-search"), text: "how did we fix the redis cluster failover timeout" },
	{ cwd: ws("twat-search"), text: "what did we decide about the kafka consumer group rebalancing?" },
	{ cwd: ws("twat-search"), text: "what error did we hit when the ios provisioning profile expired" },
	{ cwd: ws("twat-search"), text: "which tests did we run after the oauth pkce refresh token change" },
	{ cwd: ws("gpt-crawler"), text: "what did we try first for the webrtc turn server and abandon?" },
	{ cwd: ws("gpt-crawler"), text: "remind me what the elasticsearch mapping conflict said" },
	{ cwd: ws("gpt-crawler"), text: "pull up that task about the unity shader compilation" },
	{ cwd: ws("easy-video-share"), text: "how did we fix the postgres deadlock in the invoice batch job" },
	{ cwd: ws("easy-video-share"), text: "what did we settle on for the swiftui navigation stack" },
	{ cwd: ws("easy-video-share"), text: "which file did we change for the flutter pubspec upgrade" },
	{ cwd: ws("easy-video-share"), text: "what did the rspec run say after the devise upgrade" },
	{ cwd: ws("politipo"), text: "what error did we hit with the grpc protobuf codegen in go" },
	{ cwd: ws("politipo"), text: "remind me how we fixed the nginx 502 behind the load balancer" },
	{ cwd: ws("politipo"), text: "find the session where I asked about the rabbitmq dead letter queue" },
	{ cwd: ws("politipo"), text: "what did we decide about the react native push notification permissions" },
	{ cwd: ws("twat-mp"), text: "how did we fix the kotlin coroutine leak in the android viewmodel" },
	{ cwd: ws("twat-mp"), text: "pull up the task about the laravel queue worker" },
	{ cwd: ws("twat-mp"), text: "what did the cypress checkout test print when it flaked" },
	{ cwd: ws("best-shot"), text: "which file did we change for the kubernetes helm chart values" },
	{ cwd: ws("best-shot"), text: "what did we try first for the websocket reconnect backoff in the rust client" },
	{ cwd: ws("best-shot"), text: "remind me what the terraform state lock error said" },
	{ cwd: ws("process-xbrl"), text: "how did we fix the safari service worker cache bug" },
	{ cwd: ws("process-xbrl"), text: "what did we decide about the jwt rotation for the mobile app" },
	{ cwd: ws("process-xbrl"), text: "pull up the task about the shopify theme liquid templates" },
	{ cwd: ws("munsell-space"), text: "which tests did we run after the django migration squash" },
	{ cwd: ws("munsell-space"), text: "what error did we hit with the spring boot actuator endpoint" },
	{ cwd: ws("dvc"), text: "remind me how we fixed the wordpress plugin activation hook" },
	{ cwd: ws("dvc"), text: "what did the jest snapshot for the checkout modal print" },
	{ cwd: ws("dvc"), text: "pull up the task about the stripe subscription proration" },
	{ cwd: ws("barqly-vault"), text: "what did we decide about the graphql pagination cursors" },
	{ cwd: ws("barqly-vault"), text: "how did we fix the kafka producer idempotence setting" },
	{ cwd: ws("barqly-vault"), text: "which file did we change for the ruby on rails mailer previews" },
];
