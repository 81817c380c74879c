ALTER TABLE "groups" ADD COLUMN "brand_product_name" text;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "brand_logo_asset_id" text;