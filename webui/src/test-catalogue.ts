/**
 * Test fixture: the catalogue as GET /api/catalogue answers it (generated from
 * config/catalogue.toml; price ids are fake).
 */
import type { Catalogue } from './lib/catalogue'

export const testCatalogue: Catalogue = {
  "families": [
    {
      "key": "website",
      "title": "Get Your Website Live in 24 Hours",
      "description": "Pick a plan, tell us your domain and we design, build and host a website that scores 99/100 on PageSpeed. No coding, no plugins.",
      "cta": "Continue to Secure Checkout",
      "show_domain": true,
      "bullets": [
        "Live within 24 hours",
        "Hosting included",
        "Cancel anytime"
      ],
      "default_plan": "professional",
      "plans": [
        "starter",
        "professional",
        "premium"
      ]
    },
    {
      "key": "ai-booking",
      "title": "Set Up Your AI Booking System",
      "description": "Patients book, reschedule and get reminders around the clock while your front desk focuses on the people in the room.",
      "cta": "Start My AI Booking System",
      "show_domain": false,
      "bullets": [
        "Set up in 7 days",
        "Works with your calendar",
        "60-day money-back guarantee"
      ],
      "default_plan": "ai-booking-pro",
      "plans": [
        "ai-booking-starter",
        "ai-booking-pro",
        "ai-booking-premium"
      ]
    },
    {
      "key": "ai-scale",
      "title": "Launch Your AI Content Engine",
      "description": "Turn one idea into 30 videos and posts in 24 hours, with approval control and scheduling built in.",
      "cta": "Start My Content Engine",
      "show_domain": false,
      "bullets": [
        "First content in 24 hours",
        "You approve every post",
        "30-day money-back guarantee"
      ],
      "default_plan": "ai-scale-growth",
      "plans": [
        "ai-scale-builder",
        "ai-scale-growth",
        "ai-scale-plan"
      ]
    },
    {
      "key": "ai-onboarding",
      "title": "Automate Your Client Onboarding",
      "description": "Forms, welcome e-mails, access requests and kick-off scheduling run on their own, so every new client starts the same polished way.",
      "cta": "Automate My Onboarding",
      "show_domain": false,
      "bullets": [
        "Set up in 7 days",
        "Connects to the tools you use",
        "30-day money-back guarantee"
      ],
      "default_plan": "ai-onboarding-pro",
      "plans": [
        "ai-onboarding-essential",
        "ai-onboarding-pro",
        "ai-onboarding-agency"
      ]
    },
    {
      "key": "leadgen",
      "title": "Rebuild Your Clinic Landing Page and Funnel",
      "description": "A fast landing page and booking funnel that turns clinic visitors into appointments, rebuilt and live within 24 hours.",
      "cta": "Rebuild My Landing Page",
      "show_domain": true,
      "bullets": [
        "24-hour delivery",
        "No contracts",
        "30-day money-back guarantee"
      ],
      "default_plan": "landing-page-rebuild",
      "plans": [
        "landing-page-rebuild"
      ]
    },
    {
      "key": "rebuild",
      "title": "Rebuild Your Website or Funnel",
      "description": "We rebuild your site or sales funnel for speed and conversions, keep your content, and hand it back ready to sell.",
      "cta": "Start My Rebuild",
      "show_domain": true,
      "bullets": [
        "24-hour delivery (48 hours for the funnel offer)",
        "No contracts",
        "30-day money-back guarantee"
      ],
      "default_plan": "pro-rebuild",
      "plans": [
        "basic-rebuild",
        "pro-rebuild",
        "premium-rebuild",
        "sales-funnel-rebuild-offer"
      ]
    },
    {
      "key": "ai",
      "title": "Put AI to Work in Your Business",
      "description": "Done-for-you AI systems for customer support, lead handling and repetitive workflows, connected to the tools you already use.",
      "cta": "Start My AI Setup",
      "show_domain": false,
      "bullets": [
        "72-hour delivery on the launch offer, 7 days for full setups",
        "No contracts",
        "30-day money-back guarantee"
      ],
      "default_plan": "pro-ai",
      "plans": [
        "ai-lead-engine",
        "starter-ai",
        "pro-ai",
        "full-stack-ai"
      ]
    },
    {
      "key": "ugc",
      "title": "Order Your UGC Videos",
      "description": "Authentic creator videos for your ads and social channels, scripted around your offer and delivered ready to post.",
      "cta": "Order My Videos",
      "show_domain": false,
      "bullets": [
        "Delivery from 48 hours",
        "Unlimited hook ideas",
        "Usage rights included"
      ],
      "default_plan": "conversion-bundle",
      "plans": [
        "starter-clip",
        "conversion-bundle",
        "scaling-stack",
        "custom-campaign"
      ]
    },
    {
      "key": "funnel",
      "title": "Done-For-You Sales Funnel",
      "description": "A complete sales funnel built in 7 days after your questionnaire: pages, copy, e-mails and tracking.",
      "cta": "Apply For Your Free Funnel Teardown",
      "show_domain": false,
      "bullets": [
        "Built in 7 days",
        "Unlimited revisions for 30 days",
        "14-day money-back guarantee"
      ],
      "default_plan": "growth-funnel",
      "plans": [
        "starter-funnel",
        "growth-funnel",
        "enterprise-funnel"
      ]
    }
  ],
  "plans": [
    {
      "key": "starter",
      "family": "website",
      "name": "Starter",
      "description": "A fast one-page website for a new or small business.",
      "price": 1900,
      "currency": "EUR",
      "original_price": 3900,
      "save_percent": 51,
      "mode": "subscription",
      "interval": "month",
      "badge": null,
      "features": [
        "One-page website",
        "99/100 PageSpeed score",
        "Hosting and SSL included",
        "Mobile-first design",
        "Contact form"
      ],
      "delivery": "24 hours",
      "guarantee": "Cancel anytime",
      "checkout": true,
      "price_id": "price_starter"
    },
    {
      "key": "professional",
      "family": "website",
      "name": "Professional",
      "description": "A multi-page website built to win customers, with e-mail automation and SEO.",
      "price": 2900,
      "currency": "EUR",
      "original_price": 9700,
      "save_percent": 70,
      "mode": "subscription",
      "interval": "month",
      "badge": "popular",
      "features": [
        "Up to 5 pages",
        "99/100 PageSpeed score",
        "Hosting and SSL included",
        "E-mail automation",
        "SEO optimized",
        "Monthly updates"
      ],
      "delivery": "24 hours",
      "guarantee": "Cancel anytime",
      "checkout": true,
      "price_id": "price_professional"
    },
    {
      "key": "premium",
      "family": "website",
      "name": "Premium",
      "description": "A premium website with custom design, funnels and priority support.",
      "price": 49900,
      "currency": "EUR",
      "original_price": 249700,
      "save_percent": 80,
      "mode": "subscription",
      "interval": "month",
      "badge": null,
      "features": [
        "Unlimited pages",
        "Custom premium design",
        "Sales funnel and booking",
        "E-mail automation and SEO",
        "Priority support",
        "Limited time launch pricing"
      ],
      "delivery": "24 hours",
      "guarantee": "Cancel anytime",
      "checkout": true,
      "price_id": "price_premium"
    },
    {
      "key": "ai-booking-starter",
      "family": "ai-booking",
      "name": "AI Booking Starter",
      "description": "Online booking with automatic confirmations and reminders.",
      "price": 14900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": null,
      "features": [
        "24/7 online booking",
        "Automatic reminders",
        "Calendar sync"
      ],
      "delivery": "7 days",
      "guarantee": "60-day money-back guarantee",
      "checkout": true,
      "price_id": "price_ai_booking_starter"
    },
    {
      "key": "ai-booking-pro",
      "family": "ai-booking",
      "name": "AI Booking Pro",
      "description": "An AI receptionist that books, reschedules and answers patient questions.",
      "price": 29900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": "popular",
      "features": [
        "Everything in Starter",
        "AI chat receptionist",
        "Rescheduling and waitlist",
        "No-show follow-ups"
      ],
      "delivery": "7 days",
      "guarantee": "60-day money-back guarantee",
      "checkout": true,
      "price_id": "price_ai_booking_pro"
    },
    {
      "key": "ai-booking-premium",
      "family": "ai-booking",
      "name": "AI Booking Premium",
      "description": "The complete booking system, run and improved for you every month.",
      "price": 4900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "subscription",
      "interval": "month",
      "badge": null,
      "features": [
        "Everything in Pro",
        "Monthly optimisation",
        "Priority support",
        "Reporting dashboard"
      ],
      "delivery": "7 days",
      "guarantee": "60-day money-back guarantee",
      "checkout": true,
      "price_id": "price_ai_booking_premium"
    },
    {
      "key": "ai-scale-builder",
      "family": "ai-scale",
      "name": "Content Engine Builder",
      "description": "Your AI content engine set up once: 30 videos and posts from one idea.",
      "price": 19900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": null,
      "features": [
        "30 videos and posts from one idea",
        "Approval control",
        "Scheduling set up"
      ],
      "delivery": "24 hours",
      "guarantee": "30-day money-back guarantee",
      "checkout": true,
      "price_id": "price_ai_scale_builder"
    },
    {
      "key": "ai-scale-growth",
      "family": "ai-scale",
      "name": "Content Engine Growth",
      "description": "The content engine plus brand voice training and multi-channel publishing.",
      "price": 39900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": "popular",
      "features": [
        "Everything in Builder",
        "Brand voice training",
        "Multi-channel publishing",
        "Performance review call"
      ],
      "delivery": "24 hours",
      "guarantee": "30-day money-back guarantee",
      "checkout": true,
      "price_id": "price_ai_scale_growth"
    },
    {
      "key": "ai-scale-plan",
      "family": "ai-scale",
      "name": "Content Engine Plan",
      "description": "A fresh batch of content from your engine every month.",
      "price": 3900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "subscription",
      "interval": "month",
      "badge": null,
      "features": [
        "Monthly content batch",
        "Approval control",
        "Scheduling"
      ],
      "delivery": "24 hours",
      "guarantee": "Cancel anytime",
      "checkout": true,
      "price_id": "price_ai_scale_plan"
    },
    {
      "key": "ai-onboarding-essential",
      "family": "ai-onboarding",
      "name": "Onboarding Essential",
      "description": "Automated intake forms and welcome e-mails for every new client.",
      "price": 19900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": null,
      "features": [
        "Intake forms",
        "Welcome e-mail sequence",
        "Task checklist"
      ],
      "delivery": "7 days",
      "guarantee": "30-day money-back guarantee",
      "checkout": true,
      "price_id": "price_ai_onboarding_essential"
    },
    {
      "key": "ai-onboarding-pro",
      "family": "ai-onboarding",
      "name": "Onboarding Pro",
      "description": "Full onboarding automation: access requests, kick-off scheduling and AI follow-ups.",
      "price": 34900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": "popular",
      "features": [
        "Everything in Essential",
        "Access requests",
        "Kick-off scheduling",
        "AI follow-ups"
      ],
      "delivery": "7 days",
      "guarantee": "30-day money-back guarantee",
      "checkout": true,
      "price_id": "price_ai_onboarding_pro"
    },
    {
      "key": "ai-onboarding-agency",
      "family": "ai-onboarding",
      "name": "Onboarding Agency",
      "description": "Onboarding automation for a growing agency, maintained every month.",
      "price": 5900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "subscription",
      "interval": "month",
      "badge": null,
      "features": [
        "Everything in Pro",
        "Unlimited client workflows",
        "Monthly improvements",
        "Priority support"
      ],
      "delivery": "7 days",
      "guarantee": "Cancel anytime",
      "checkout": true,
      "price_id": "price_ai_onboarding_agency"
    },
    {
      "key": "landing-page-rebuild",
      "family": "leadgen",
      "name": "Landing Page & Funnel Rebuild",
      "description": "A clinic landing page and booking funnel rebuilt for speed and appointments.",
      "price": 19700,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": "popular",
      "features": [
        "High-converting landing page",
        "Booking funnel",
        "99/100 PageSpeed score",
        "Mobile-first design",
        "Tracking set up",
        "Consultation form"
      ],
      "delivery": "24 hours",
      "guarantee": "30-day money-back guarantee",
      "checkout": true,
      "price_id": "price_landing_page_rebuild"
    },
    {
      "key": "basic-rebuild",
      "family": "rebuild",
      "name": "Basic Rebuild",
      "description": "Your one-page site rebuilt fast and mobile-first.",
      "price": 14900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": null,
      "features": [
        "1 page",
        "Mobile-first rebuild",
        "99/100 PageSpeed score"
      ],
      "delivery": "24 hours",
      "guarantee": "30-day money-back guarantee",
      "checkout": true,
      "price_id": "price_basic_rebuild"
    },
    {
      "key": "pro-rebuild",
      "family": "rebuild",
      "name": "Pro Rebuild",
      "description": "Up to 3 pages rebuilt for speed and conversions.",
      "price": 24900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": "popular",
      "features": [
        "Up to 3 pages",
        "Conversion-focused layout",
        "99/100 PageSpeed score",
        "Contact and lead forms"
      ],
      "delivery": "24 hours",
      "guarantee": "30-day money-back guarantee",
      "checkout": true,
      "price_id": "price_pro_rebuild"
    },
    {
      "key": "premium-rebuild",
      "family": "rebuild",
      "name": "Premium Rebuild",
      "description": "Up to 5 pages rebuilt with premium design and SEO.",
      "price": 39900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": null,
      "features": [
        "5 pages",
        "Premium design",
        "SEO optimized",
        "99/100 PageSpeed score",
        "Lead capture and booking"
      ],
      "delivery": "24 hours",
      "guarantee": "30-day money-back guarantee",
      "checkout": true,
      "price_id": "price_premium_rebuild"
    },
    {
      "key": "sales-funnel-rebuild-offer",
      "family": "rebuild",
      "name": "Sales Funnel Rebuild",
      "description": "Your sales funnel rebuilt to convert, launch offer.",
      "price": 9700,
      "currency": "EUR",
      "original_price": 29700,
      "save_percent": 67,
      "mode": "payment",
      "interval": null,
      "badge": "launch",
      "features": [
        "Landing page rebuild",
        "Order and thank-you pages",
        "Copy polish",
        "Tracking set up",
        "Mobile-first design"
      ],
      "delivery": "48 hours",
      "guarantee": "30-day money-back guarantee",
      "checkout": true,
      "price_id": "price_sales_funnel_rebuild_offer"
    },
    {
      "key": "ai-lead-engine",
      "family": "ai",
      "name": "AI Lead Engine",
      "description": "An AI lead engine that captures, qualifies and follows up on leads. Only 5 spots.",
      "price": 14700,
      "currency": "EUR",
      "original_price": 29700,
      "save_percent": 50,
      "mode": "payment",
      "interval": null,
      "badge": "launch",
      "features": [
        "Lead capture",
        "AI qualification",
        "Automatic follow-ups",
        "CRM hand-off"
      ],
      "delivery": "72 hours",
      "guarantee": "30-day money-back guarantee",
      "checkout": true,
      "price_id": "price_ai_lead_engine"
    },
    {
      "key": "starter-ai",
      "family": "ai",
      "name": "Starter AI",
      "description": "1 AI system setup.",
      "price": 49900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": null,
      "features": [
        "1 AI system setup",
        "Connected to your tools",
        "Team walkthrough"
      ],
      "delivery": "7 days",
      "guarantee": "30-day money-back guarantee",
      "checkout": true,
      "price_id": "price_starter_ai"
    },
    {
      "key": "pro-ai",
      "family": "ai",
      "name": "Pro AI",
      "description": "3 automations plus integrations.",
      "price": 99900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": "popular",
      "features": [
        "3 automations",
        "Integrations with your tools",
        "AI customer support",
        "30 days of tuning"
      ],
      "delivery": "7 days",
      "guarantee": "30-day money-back guarantee",
      "checkout": true,
      "price_id": "price_pro_ai"
    },
    {
      "key": "full-stack-ai",
      "family": "ai",
      "name": "Full Stack AI",
      "description": "AI across support, sales and operations, fully integrated.",
      "price": 199900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": "premium",
      "features": [
        "Unlimited automations",
        "Support, sales and operations",
        "Custom integrations",
        "Priority support"
      ],
      "delivery": "7 days",
      "guarantee": "30-day money-back guarantee",
      "checkout": true,
      "price_id": "price_full_stack_ai"
    },
    {
      "key": "starter-clip",
      "family": "ugc",
      "name": "Starter Clip",
      "description": "1 video, 30-60 sec.",
      "price": 4900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": null,
      "features": [
        "1 video (30-60 sec)",
        "Script included",
        "Usage rights"
      ],
      "delivery": "48 hours",
      "guarantee": null,
      "checkout": true,
      "price_id": "price_starter_clip"
    },
    {
      "key": "conversion-bundle",
      "family": "ugc",
      "name": "Conversion Bundle",
      "description": "3 videos built to convert.",
      "price": 12900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": "popular",
      "features": [
        "3 videos",
        "Scripts included",
        "Hooks tested for ads",
        "Usage rights"
      ],
      "delivery": "72 hours",
      "guarantee": null,
      "checkout": true,
      "price_id": "price_conversion_bundle"
    },
    {
      "key": "scaling-stack",
      "family": "ugc",
      "name": "Scaling Stack",
      "description": "5 hook variations to scale your winning ads.",
      "price": 24900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": null,
      "features": [
        "5 hook variations",
        "Scripts included",
        "Ad-ready formats",
        "Usage rights"
      ],
      "delivery": "5 days",
      "guarantee": null,
      "checkout": true,
      "price_id": "price_scaling_stack"
    },
    {
      "key": "custom-campaign",
      "family": "ugc",
      "name": "Custom Campaign",
      "description": "Up to 30 videos for a full campaign.",
      "price": 49900,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": "premium",
      "features": [
        "Up to 30 videos",
        "Creator casting",
        "Campaign strategy",
        "Usage rights"
      ],
      "delivery": "5-7 days",
      "guarantee": null,
      "checkout": true,
      "price_id": "price_custom_campaign"
    },
    {
      "key": "starter-funnel",
      "family": "funnel",
      "name": "Starter Funnel",
      "description": "A focused 2-page funnel with 30 days of support.",
      "price": 99700,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": null,
      "features": [
        "2 pages",
        "Copy and design",
        "E-mail follow-up",
        "30 days of support"
      ],
      "delivery": "7 days",
      "guarantee": "14-day money-back guarantee",
      "checkout": false,
      "price_id": "price_starter_funnel"
    },
    {
      "key": "growth-funnel",
      "family": "funnel",
      "name": "Growth Funnel",
      "description": "A 4-page funnel with upsells and 60 days of support.",
      "price": 199700,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": "popular",
      "features": [
        "4 pages",
        "Upsell and order bump",
        "E-mail sequence",
        "60 days of support"
      ],
      "delivery": "7 days",
      "guarantee": "14-day money-back guarantee",
      "checkout": false,
      "price_id": "price_growth_funnel"
    },
    {
      "key": "enterprise-funnel",
      "family": "funnel",
      "name": "Enterprise Funnel",
      "description": "A custom multi-page funnel with 90 days of support.",
      "price": 499700,
      "currency": "EUR",
      "original_price": null,
      "save_percent": null,
      "mode": "payment",
      "interval": null,
      "badge": null,
      "features": [
        "Custom multi-page funnel",
        "Advanced automation",
        "A/B testing",
        "90 days of support"
      ],
      "delivery": "7 days",
      "guarantee": "14-day money-back guarantee",
      "checkout": false,
      "price_id": "price_enterprise_funnel"
    }
  ]
}
