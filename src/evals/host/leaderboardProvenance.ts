import type { AnswerProvenance } from '../model/answerProvenance';
import type { Dialogs } from '../../platform/host/dialogs';

/**
 * Before an action that trusts a leaderboard (use a checkpoint, delete the others): when answers of
 * it came with the file rather than from a run on this machine, says so in a modal and lets the
 * person re-score them first, go on anyway, or cancel. Not known (`counts` undefined) is not
 * "produced here": the person decides with that said. Nothing came with the file: go on, unasked.
 */
export async function askAboutProvenance(dialogs: Dialogs, counts: AnswerProvenance | undefined, action: string): Promise<'continue' | 'rescore' | 'cancel'> {
  if (!counts) {
    const choice = await dialogs.choose(
      'Whether the answers of this leaderboard were produced on this machine could not be told.',
      { modal: true, detail: `They may have come with the file, scores and all. "Continue anyway" goes on to ${action} with the leaderboard as it is.` },
      'Continue anyway',
    );
    return choice === 'Continue anyway' ? 'continue' : 'cancel';
  }
  if (counts.fromFile === 0) return 'continue';
  const choice = await dialogs.choose(
    `${counts.fromFile} of ${counts.total} answers of this leaderboard came with the file: they were not produced on this machine.`,
    {
      modal: true,
      detail: `Their scores say what the file says, which may not be what these models answer. "Re-score first" asks those ${counts.fromFile} answers again here (the run says what it will send before it sends anything); "Continue anyway" goes on to ${action} with the leaderboard as it is.`,
    },
    'Re-score first',
    'Continue anyway',
  );
  return choice === 'Re-score first' ? 'rescore' : choice === 'Continue anyway' ? 'continue' : 'cancel';
}
