/**
 * General conversations of the natural-question set (LoCoMo-style): Caroline keeps a journal with an assistant over
 * several months; friends' names, plans and events recur across sessions, so the words of a question occur in many
 * turns and only one of them answers it.
 */
import { a, type NaturalSession, q, u } from "./set.js";

const CWD = "/home/caroline/journal";

export const CAROLINE_SESSIONS: NaturalSession[] = [
	{
		label: "caroline-may",
		cwd: CWD,
		start: "2023-05-08T13:56:00.000Z",
		turns: [
			u(
				"Hi, it's Caroline again. I went to an LGBTQ support group yesterday and it was so powerful, people shared their transgender stories and I felt accepted.",
				q("When did Caroline go to the support group?", "question-form"),
				q("caroline lgbtq support meeting", "keywords"),
			),
			a("That sounds like a meaningful evening, Caroline. What made the support group feel so powerful for you?"),
			u(
				"Hearing how they found courage. It made me think about my own path, and I'm now researching adoption agencies because I want to give a kid a loving home.",
				q("What is Caroline researching?", "question-form"),
				q("adopting a child plans", "inflection"),
			),
			a(
				"Adoption is a big and beautiful step. Do you know yet whether you'd go through an agency or foster care first?",
			),
			u(
				"An agency probably. My friend Melanie has two kids and she says it's the best thing she ever did.",
				q("how many children does Melanie have", "paraphrase"),
			),
			u(
				"Oh and I started painting again! Nothing fancy, I did a small landscape of the lake at sunset with acrylics.",
				q("what did Caroline paint in May", "inflection"),
				q("acrylic landscape painted", "inflection"),
				q("lake sunset acrylics caroline", "keywords"),
			),
			a("A lake at sunset in acrylics sounds lovely. How long have you been painting?"),
			u(
				"Since 2016 on and off. Painting calms me down when work gets stressful.",
				q("how many years has Caroline been painting for", "paraphrase"),
			),
			u(
				"Also my grandma sent me a necklace from Sweden for my birthday, it means a lot, it reminds me of where I come from.",
				q("Which country was Caroline's necklace from?", "question-form"),
				q("birthday present from grandma", "paraphrase"),
			),
		],
	},
	{
		label: "caroline-june",
		cwd: CWD,
		start: "2023-06-12T18:20:00.000Z",
		turns: [
			u(
				"Caroline here. Last weekend I marched in the pride parade downtown with people from the support group, the energy was unreal. I wore grandma's necklace for luck.",
				q("When did Caroline attend a pride parade?", "question-form"),
				q("marching at pride with the group", "inflection"),
			),
			a("That sounds joyful! Were you there with the whole support group?"),
			u(
				"Most of them. And big news: I signed up for a counseling certification course. I want to work in mental health, especially with trans youth.",
				q("What kind of work does Caroline want to do in mental health?", "question-form"),
				q("counselling course enrollment", "paraphrase"),
			),
			a(
				"That's a wonderful direction. Counseling trans youth could draw on your own experience and the support group.",
			),
			u(
				"The course starts in September and runs on Tuesday evenings for a year.",
				q("when does the counseling course begin", "paraphrase"),
			),
			u(
				"Melanie came over on Sunday and we talked about her pottery class, she made a bowl with a little dog painted on it for her son.",
				q("what did Melanie make in pottery class", "inflection"),
			),
			a("A hand-painted bowl for her son sounds sweet. Is Melanie still doing pottery every week?"),
			u(
				"Every Thursday. I'm also reading Becoming Nicole by Amy Ellis Nutt, a friend recommended it after the parade.",
				q("What book is Caroline reading?", "question-form"),
				q("book recommended after the parade", "inflection"),
			),
			u(
				"I've been feeling anxious about the adoption interviews, honestly. What if they judge me for being trans?",
				q("is Caroline worried about the agency interview", "paraphrase"),
			),
			a(
				"It's natural to feel anxious. Many agencies work with LGBTQ parents; you could ask the support group whether someone went through the same agency and how the interviews went.",
				q("advice about finding agencies friendly to LGBTQ parents", "inflection"),
			),
		],
	},
	{
		label: "caroline-july",
		cwd: CWD,
		start: "2023-07-20T09:05:00.000Z",
		turns: [
			u(
				"Good morning! Caroline again. We went hiking at Mount Hood with three friends from the counseling course prep group, we slept in a cabin near the trail.",
				q("Where did Caroline go hiking?", "question-form"),
				q("hike with friends and a cabin", "inflection"),
			),
			a("Mount Hood is gorgeous in July. How was the hike itself?"),
			u(
				"Exhausting, 14 miles, but the view from the ridge was worth every step. I took so many photos for future paintings.",
				q("how many miles was the hike", "inflection"),
			),
			u(
				"The adoption agency called me back, I have my first home study visit on August 3rd.",
				q("When is Caroline's home study visit with the adoption agency?", "question-form"),
				q("agency home study date", "keywords"),
			),
			a(
				"Congratulations, Caroline! A home study is a big milestone. Do you want to prepare a list of questions for the visit?",
			),
			u(
				"Yes please. Also I want to make my spare room ready for a kid, maybe paint it a soft green.",
				q("what colour will Caroline paint the spare room", "paraphrase"),
			),
			a(
				"Questions for the home study: how long does placement usually take, what support exists after placement, how are birth families involved, and what training is expected of adoptive parents.",
				q("list of questions to ask during the home study", "inflection"),
			),
			u(
				"Melanie called, she ran a charity race last Saturday to raise money for mental health, 5k, I'm so proud of her.",
				q("What did Melanie do to raise funds?", "question-form"),
				q("melanie running for a mental health charity", "inflection"),
			),
		],
	},
	{
		label: "caroline-september",
		cwd: CWD,
		start: "2023-09-02T20:40:00.000Z",
		turns: [
			u(
				"Caroline here. The home study went well! The social worker said my place is perfect and my application moves to the matching stage.",
				q("how did the home study visit go", "inflection"),
			),
			a("That's fantastic news, Caroline! What happens in the matching stage?"),
			u(
				"They look for a child whose needs fit my home. It can take months, so I'm trying to be patient.",
				q("how long can adoption matching take", "inflection"),
			),
			u(
				"I finished a new painting this week, a sunrise over the ocean, I gave it to Melanie for her birthday.",
				q("What did Caroline give Melanie for her birthday?", "question-form"),
				q("sunrise ocean painting gift", "inflection"),
			),
			a("What a thoughtful birthday gift. Did Melanie hang the painting somewhere special?"),
			u(
				"Above her piano! Oh, and the counseling course started Tuesday, the first module is about active listening.",
				q("what was the first lesson of the counselling course about", "paraphrase"),
			),
			u(
				"Next month I'm speaking at a transgender conference in Portland about my coming out story. I'm terrified and excited.",
				q("When is Caroline giving a talk at the conference?", "question-form", "caroline-talk-went-well"),
				q("speaking at a trans conference in portland", "paraphrase"),
			),
			a(
				"You'll do great at the conference. Want to practice the talk here? We could outline it: childhood, coming out, the support group, and what you want trans youth to hear.",
				q("outline of my coming out speech", "keywords"),
			),
			u(
				"Also I adopted a dog from the shelter! Her name is Luna, she's a two year old beagle mix.",
				q("what is the name of Caroline's dog", "paraphrase"),
				q("adopting a beagle from the shelter", "inflection"),
			),
		],
	},
];
