/** The evaluation report: the editor of results files (`*.rleval.json`). */
export const evalReportViewType = 'rlStudio.evalReport';
