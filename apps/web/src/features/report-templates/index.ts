/** What the report editor takes from the templates feature (issue 7 contract: H3 → H2). */
export { TemplateChooser, type TTemplateChooserProps, type TTemplateSource } from './TemplateChooser';
