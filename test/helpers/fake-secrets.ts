/** Secrets of every format the redaction knows (src/text/redact.ts), for its tests. */
/** Made-up, assembled from parts so that no scanner takes this file for a leak. */
export const FAKE = {
	awsKeyId: `AKIA${"Q7ZP3XW5NB2KD4HM"}`,
	awsSecret: `wJal${"rXUtnFEMI/K7MDENG/bPxRfiCY9r2T4q8vLs"}`,
	github: `ghp_${"x9Kf2LmQ7rT4vW8yZ1bC3dE5gH6jN0pS2uA4"}`,
	githubFine: `github_pat_${"11ABCDEFG0123456789_".padEnd(82, "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5oQ7sU9wY1")}`,
	openaiProject: `sk-proj-${"Xb7Yq2Lm9Rt4Vw8Zc1Df3Gh5Jk6Np0Qs2Tu4Wx6Yz8Ab1Cd3Ef5Gh7"}T3BlbkFJ${"Za8Yb6Xc4Wd2Ve0Uf9Tg7Sh5Ri3Qj1Pk"}`,
	openaiLegacy: `sk-${"Ab3De5Gh7Jk9Mn1Pq3St"}T3BlbkFJ${"Uv5Wx7Yz9Ab1Cd3Ef5Gh"}`,
	anthropic: `sk-ant-api03-${"Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba7-_Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba7Zx9Yw8Vu7Ts6Rq5"}AA`,
	slack: `xoxb-${"1234567890123-1234567890123-Ab3De5Gh7Jk9Mn1Pq3St5Vw7"}`,
	google: `AIza${"SyB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3k"}`,
	stripe: `sk_live_${"51Hb3De5Gh7Jk9Mn1Pq3St5Vw7Yz9"}`,
	stripeRestricted: `rk_live_${"51Hb3De5Gh7Jk9Mn1Pq3St5Vw7Yz9"}`,
	npm: `npm_${"Ab3De5Gh7Jk9Mn1Pq3St5Vw7Yz9Ab1Cd3Ef5"}`,
	jwt: `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${"eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ"}.${"SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"}`,
	pemBody: [
		"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
		"VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK",
		"LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo",
	],
	urlPassword: "Xq7Lm2Rt9Vw4",
	generic: "Gf8Kp2Lq9Rx4Tz7Wb3Nc",
};
