/** Coding conversations of the natural-question set: the infra workspace (Docker, Kubernetes, nginx, TLS). */
import { a, type NaturalSession, noise, q, rd, sh, shFail, u } from "./set.js";

const CWD = "/home/dev/src/infra";

export const INFRA_SESSIONS: NaturalSession[] = [
	{
		label: "infra-docker",
		cwd: CWD,
		start: "2026-03-19T13:30:00.000Z",
		turns: [
			u(
				"The api image is 1.4 GB. Make the Dockerfile multi-stage and get it small.",
				q("how large was the api docker image originally", "paraphrase"),
			),
			rd(
				"/home/dev/src/infra/docker/api.Dockerfile",
				'FROM node:20\nWORKDIR /app\nCOPY . .\nRUN npm install\nRUN npm run build\nEXPOSE 8080\nCMD ["node", "dist/server.js"]',
				q("original api image steps npm install build", "keywords"),
			),
			a(
				"New Dockerfile: a `build` stage on node:20 that runs `npm ci` and the build, then a runtime stage on `node:20-slim` that copies only `dist/`, `package.json` and production dependencies (`npm ci --omit=dev`). I avoided alpine because of the bcrypt native module and musl.",
				q("why didn't we use alpine for the runtime image", "paraphrase"),
				q("multi stage build slim runtime omit dev dependencies", "inflection"),
			),
			noise(2),
			sh(
				"docker images api --format '{{.Tag}} {{.Size}}'",
				"multistage 231MB\nlatest 1.41GB",
				q("size of the multistage image", "keywords"),
			),
			u(
				"231 MB, nice. Add a healthcheck too, the orchestrator keeps routing traffic to containers that are still booting.",
				q("containers got traffic before they finished starting", "paraphrase"),
			),
			a(
				"Added `HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD node dist/healthcheck.js`; the script calls `GET /healthz`, which only returns 200 once the database pool is connected.",
				q("what start period did we give the healthcheck", "inflection"),
				q("dist/healthcheck.js probe command", "identifier"),
			),
			shFail(
				"docker build -f docker/api.Dockerfile -t api:multistage .",
				'#12 [runtime 5/6] COPY --from=build /app/dist ./dist\n#13 [runtime 6/6] RUN npm ci --omit=dev\n#13 4.107 npm ERR! code EUSAGE\n#13 4.108 npm ERR! The `npm ci` command can only install with an existing package-lock.json\nERROR: failed to solve: process "/bin/sh -c npm ci --omit=dev" did not complete successfully: exit code: 1',
				q("docker build failing because the lockfile was missing in the runtime stage", "inflection"),
				q("npm ci EUSAGE package-lock.json missing", "identifier"),
			),
			a(
				"The runtime stage copied package.json but not package-lock.json. Changed `COPY package.json ./` to `COPY package*.json ./`; the build passes.",
				q("copy package*.json so the lock file is included", "paraphrase"),
			),
		],
	},
	{
		label: "infra-k8s",
		cwd: CWD,
		start: "2026-08-11T07:55:00.000Z",
		turns: [
			u(
				"The worker pods keep restarting in production since last night. Look at what Kubernetes says.",
				q("when were the worker pods crash looping", "paraphrase"),
			),
			shFail(
				"kubectl -n prod describe pod worker-7d9f8b6c5-x2kqp",
				"Name:         worker-7d9f8b6c5-x2kqp\nStatus:       Running\nContainers:\n  worker:\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n    Restart Count:  23\n    Limits:\n      memory:  512Mi\n    Requests:\n      memory:  256Mi",
				q("why were the workers being killed", "inflection"),
				q("OOMKilled exit code 137 restarts", "keywords"),
				q("worker-7d9f8b6c5-x2kqp restarts", "identifier"),
			),
			a(
				"OOMKilled at the 512Mi limit, 23 restarts. The worker loads a whole export into memory since the change to the PDF reports. Short term raise the limit to 1Gi; proper fix is to stream the export rows.",
				q("what memory limit did the worker have when it crashed", "paraphrase"),
				q("worker oom limit raise 1Gi stream export", "keywords"),
			),
			noise(2),
			rd(
				"/home/dev/src/infra/k8s/worker/deployment.yaml",
				"resources:\n  requests:\n    cpu: 250m\n    memory: 512Mi\n  limits:\n    memory: 1Gi\nreadinessProbe:\n  httpGet: { path: /ready, port: 9090 }\n  periodSeconds: 5\nlivenessProbe:\n  httpGet: { path: /live, port: 9090 }\n  initialDelaySeconds: 30",
				q("readinessProbe and livenessProbe paths of the worker deployment", "identifier"),
			),
			u(
				"Also set up autoscaling on queue length, not CPU. The workers are idle on CPU while the queue grows.",
				q("scale workers by how many jobs are waiting", "paraphrase"),
			),
			a(
				"CPU-based HPA can't see the queue. I'll install KEDA and add a `ScaledObject` with a redis-lists trigger on `bull:exports:wait`, `listLength: 50`, min 2 and max 20 replicas. Prometheus keeps scraping the queue length for the dashboards.",
				q("which tool autoscales the workers on the redis queue", "inflection"),
				q("KEDA ScaledObject listLength threshold", "identifier"),
			),
			sh(
				"kubectl -n prod get hpa",
				"NAME                    REFERENCE           TARGETS         MINPODS   MAXPODS   REPLICAS   AGE\nkeda-hpa-worker-queue   Deployment/worker   12/50 (avg)     2         20        3          4m",
				q("how many worker replicas were running after KEDA", "inflection"),
			),
		],
	},
	{
		label: "infra-nginx",
		cwd: CWD,
		start: "2026-10-06T22:10:00.000Z",
		turns: [
			u(
				"status.example.com shows a certificate expired warning in the browser. The certbot timer should have renewed it.",
				q("when did the status page certificate expire?", "question-form"),
			),
			shFail(
				"sudo certbot renew --dry-run",
				"Processing /etc/letsencrypt/renewal/status.example.com.conf\nCertbot failed to authenticate some domains (authenticator: webroot). The Certificate Authority reported these problems:\n  Domain: status.example.com\n  Type:   unauthorized\n  Detail: Invalid response from http://status.example.com/.well-known/acme-challenge/x1F9: 404",
				q("certbot renewal failing with a 404 on the acme challenge", "inflection"),
			),
			a(
				"Certbot's webroot challenge gets a 404: the new nginx config redirects everything on port 80 to https before the `/.well-known/acme-challenge/` location is matched. I'll add that location above the redirect, pointing at `/var/www/letsencrypt`.",
				q("why couldn't certbot validate the domain", "paraphrase"),
			),
			noise(1),
			rd(
				"/etc/nginx/sites-enabled/status.conf",
				"server {\n  listen 80;\n  server_name status.example.com;\n  location /.well-known/acme-challenge/ { root /var/www/letsencrypt; }\n  location / { return 301 https://$host$request_uri; }\n}\nserver {\n  listen 443 ssl http2;\n  server_name status.example.com;\n  location / { proxy_pass http://127.0.0.1:3001; proxy_read_timeout 5s; }\n}",
				q("nginx server block for the status site", "keywords"),
			),
			u(
				"Cert renewed. But now the page shows 502 Bad Gateway every few minutes.",
				q("intermittent bad gateway errors on the status page", "inflection"),
			),
			sh(
				"sudo tail -n 5 /var/log/nginx/error.log",
				'2026/10/06 22:41:12 [error] 811#811: *5521 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.0.3.7, server: status.example.com, request: "GET /api/summary HTTP/2.0", upstream: "http://127.0.0.1:3001/api/summary"\n2026/10/06 22:43:55 [error] 811#811: *5602 upstream timed out (110: Connection timed out) while reading response header from upstream',
				q("what did the nginx error log say about the upstream", "inflection"),
			),
			a(
				"`/api/summary` sometimes takes 6–8 s (it aggregates a week of checks) and `proxy_read_timeout 5s` cuts it off. I raised the timeout to 30s for `/api/summary` only and will cache the summary for 60 s in the app.",
				q("which nginx setting was too low for the summary endpoint", "paraphrase"),
				q("proxy_read_timeout raised for the slow summary endpoint", "identifier"),
			),
			u(
				"Add an alert so we hear about expiring certificates two weeks before next time.",
				q("reminder before certs expire", "paraphrase"),
			),
			a(
				"Added a blackbox-exporter probe and the Prometheus rule `probe_ssl_earliest_cert_expiry - time() < 14 * 86400` that pages the on-call channel.",
				q("prometheus alert for tls expiry", "keywords"),
			),
		],
	},
];
