export const organizatorNavLabels = {
  ru: { classes: 'Мои классы', students: 'Ученики', diagnostics: 'Диагностики' },
  en: { classes: 'My classes', students: 'Students', diagnostics: 'Diagnostics' },
};
