/** `rgate label agree <a> <b> --json`: two graders (or a grader and the frozen qrels) compared. */
import { Type, type Static } from '@sinclair/typebox';
import { Closed, OrNull, Pair, StringEnum } from './keywords.js';
import { RuleStatusSchema } from './gate-result.js';
import { NotRescoredSchema } from './compare-session.js';

const count = Type.Integer({ minimum: 0 });

const GraderSchema = Closed({
  /** the judgments file or the fixture set, as given */
  source: Type.String(),
  kind: StringEnum(['judgments', 'qrels']),
  /** (query, document) pairs it grades */
  pairs: count,
});

const RuleWithSchema = Closed({ numerator: count, denominator: count, status: RuleStatusSchema });

export const LabelAgreeOutputSchema = Closed(
  {
    a: GraderSchema,
    b: GraderSchema,
    /** pairs both graded: what the agreement is computed over */
    pairs: count,
    /** the grade levels either used, ascending: the confusion table's rows (a) and columns (b) */
    levels: Type.Array(Type.Integer()),
    confusion: Type.Array(Type.Array(count)),
    /** the share of pairs graded the same */
    agreement: OrNull(Type.Number()),
    /** Cohen's kappa (null when chance agreement is total, e.g. one level only) and its bootstrap 95% interval */
    kappa: OrNull(Type.Number()),
    kappa95: OrNull(Pair(Type.Number())),
    /** linear-weighted kappa over the ordered levels: a near miss counts less than a far one */
    weighted_kappa: OrNull(Type.Number()),
    weighted_kappa95: OrNull(Pair(Type.Number())),
    /** kappa of relevant or not (grade >= relevance_level), the split the top-1 rates read */
    relevance_level: Type.Integer(),
    binary_kappa: OrNull(Type.Number()),
    /** the bootstrap's seed and resamples */
    seed: Type.Integer(),
    resamples: count,
    /**
     * with --run: each top-1 rate rule of that run's gate re-counted with a's grades and with b's
     * (each where it grades the run's top-1, the run's own judgment elsewhere), and whether its
     * status differs between them
     */
    verdict: Type.Optional(
      Closed({
        run_id: Type.String(),
        rules: Type.Array(
          Closed({
            metric: Type.String(),
            threshold: Type.Number(),
            with_a: RuleWithSchema,
            with_b: RuleWithSchema,
            changes: Type.Boolean(),
          }),
        ),
        changes: Type.Boolean(),
      }),
    ),
    /**
     * with --session: each compared ranking measure's winner (null: none) with each grader's grades in
     * place of the frozen qrels where it grades, every variant's kept ranking scored again (other measures keep the session's tests)
     */
    compare: Type.Optional(
      Closed({
        session_id: Type.String(),
        winners: Type.Array(
          Closed({
            metric: Type.String(),
            with_a: OrNull(Type.String()),
            with_b: OrNull(Type.String()),
            changes: Type.Boolean(),
          }),
        ),
        /** the top-1 rates not counted again (they keep the session's values), with what each needs */
        not_rescored: Type.Optional(Type.Array(NotRescoredSchema)),
        changes: Type.Boolean(),
      }),
    ),
    summary: Type.String(),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/label-agree-result.json',
    title: 'rgate label agree --json',
  },
);
export type LabelAgreeOutput = Static<typeof LabelAgreeOutputSchema>;
