/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_telemetry_phy.h — DOCA Telemetry PHY (port operation state, cable module info,
 * error counters and BER), declarations from the DOCA 3.3 interface facts. softdoca ships the
 * declarations; the library is a stub (every call returns DOCA_ERROR_NOT_SUPPORTED,
 * docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_TELEMETRY_PHY_H
#define SOFTDOCA_DOCA_TELEMETRY_PHY_H

#include <stdint.h>

#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DOCA_TELEMETRY_PHY_MODULE_INFO_ASCII_STRING_SIZE (17) /* vendor name, part and serial number... */
#define DOCA_TELEMETRY_PHY_MAX_LANES 8

struct doca_dev;
struct doca_devinfo;
struct doca_telemetry_phy;

/* Operation info */

enum doca_telemetry_phy_protocol {
	DOCA_TELEMETRY_PHY_PROTOCOL_IB = 0x1,
	DOCA_TELEMETRY_PHY_PROTOCOL_ETH = 0x4
};

/* firmware PHY manager state machine */
enum doca_telemetry_phy_mng_state {
	DOCA_TELEMETRY_PHY_STATE_DISABLED = 0x0,
	DOCA_TELEMETRY_PHY_STATE_OPEN_PORT = 0x1,
	DOCA_TELEMETRY_PHY_STATE_POLLING = 0x2,
	DOCA_TELEMETRY_PHY_STATE_ACTIVE = 0x3,
	DOCA_TELEMETRY_PHY_STATE_CLOSE_PORT = 0x4,
	DOCA_TELEMETRY_PHY_STATE_PHY_UP = 0x5,
	DOCA_TELEMETRY_PHY_STATE_SLEEP = 0x6,
	DOCA_TELEMETRY_PHY_STATE_RX_DISABLE = 0x7,
	DOCA_TELEMETRY_PHY_STATE_SIGNAL_DETECT = 0x8,
	DOCA_TELEMETRY_PHY_STATE_RCVR_DETECT = 0x9,
	DOCA_TELEMETRY_PHY_STATE_SYNC_PEER = 0xa,
	DOCA_TELEMETRY_PHY_STATE_NEGOTIATION = 0xb,
	DOCA_TELEMETRY_PHY_STATE_TRAINING = 0xc,
	DOCA_TELEMETRY_PHY_STATE_SUBFSM_ACTIVE = 0xd,
	DOCA_TELEMETRY_PHY_STATE_PROTOCOL_DETECT = 0xe,
	DOCA_TELEMETRY_PHY_STATE_UNKNOWN = 0xf
};

enum doca_telemetry_phy_ib_phy_state {
	DOCA_TELEMETRY_PHY_IB_PHY_STATE_AN_FSM_DISABLED = 0x0,
	DOCA_TELEMETRY_PHY_IB_PHY_STATE_AN_FSM_INITIALIZING = 0x1,
	DOCA_TELEMETRY_PHY_IB_PHY_STATE_AN_FSM_RECOVER_CFG = 0x2,
	DOCA_TELEMETRY_PHY_IB_PHY_STATE_AN_FSM_CFG_TEST = 0x3,
	DOCA_TELEMETRY_PHY_IB_PHY_STATE_AN_FSM_WAIT_REMOTE_TEST = 0x4,
	DOCA_TELEMETRY_PHY_IB_PHY_STATE_AN_FSM_WAIT_CFG_ENHANCED = 0x5,
	DOCA_TELEMETRY_PHY_IB_PHY_STATE_AN_FSM_CFG_IDLE = 0x6,
	DOCA_TELEMETRY_PHY_IB_PHY_STATE_AN_FSM_LINK_UP = 0x7,
	DOCA_TELEMETRY_PHY_IB_PHY_STATE_AN_FSM_POLLING = 0x8
};

enum doca_telemetry_phy_eth_phy_state {
	DOCA_TELEMETRY_PHY_ETH_PHY_STATE_ENABLE = 0x0,
	DOCA_TELEMETRY_PHY_ETH_PHY_STATE_XMIT_DISABLE = 0x1,
	DOCA_TELEMETRY_PHY_ETH_PHY_STATE_ABILITY_DETECT = 0x2,
	DOCA_TELEMETRY_PHY_ETH_PHY_STATE_ACK_DETECT = 0x3,
	DOCA_TELEMETRY_PHY_ETH_PHY_STATE_COMPLETE_ACK = 0x4,
	DOCA_TELEMETRY_PHY_ETH_PHY_STATE_AN_GOOD_CHECK = 0x5,
	DOCA_TELEMETRY_PHY_ETH_PHY_STATE_LINK_UP = 0x6,
	DOCA_TELEMETRY_PHY_ETH_PHY_STATE_NEXT_PAGE_WAIT = 0x7
};

/* by active protocol */
union doca_telemetry_phy_state {
	enum doca_telemetry_phy_ib_phy_state ib_phy_state;
	enum doca_telemetry_phy_eth_phy_state eth_phy_state;
};

/* bits */
enum doca_telemetry_phy_eth_link_speed {
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_UNKNOWN = 0x0,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_10M = 0x1,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_10M_BASE_T = 0x2,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_100M = 0x4,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_100M_BASE_TX = 0x8,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_1000M_BASE_T = 0x10,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_CX = 0x20,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_KX = 0x40,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_CX4 = 0x80,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_KX4 = 0x100,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_1G = 0x400,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_5G = 0x1000,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_10G_BASE_T = 0x2000,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_10G = 0x4000,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_25G = 0x8000,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_40G = 0x10000,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_50G = 0x20000,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_100G = 0x40000,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_200G = 0x80000,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_400G = 0x100000,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_800G = 0x200000,
	DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_1600G = 0x400000,
};

/* bits */
enum doca_telemetry_phy_ib_link_speed {
	DOCA_TELEMETRY_PHY_IB_LINK_SPEED_SDR = 0x1,
	DOCA_TELEMETRY_PHY_IB_LINK_SPEED_DDR = 0x2,
	DOCA_TELEMETRY_PHY_IB_LINK_SPEED_QDR = 0x4,
	DOCA_TELEMETRY_PHY_IB_LINK_SPEED_FDR10 = 0x8,
	DOCA_TELEMETRY_PHY_IB_LINK_SPEED_FDR = 0x10,
	DOCA_TELEMETRY_PHY_IB_LINK_SPEED_EDR = 0x20,
	DOCA_TELEMETRY_PHY_IB_LINK_SPEED_HDR = 0x40,
	DOCA_TELEMETRY_PHY_IB_LINK_SPEED_NDR = 0x80,
	DOCA_TELEMETRY_PHY_IB_LINK_SPEED_XDR = 0x100
};

union doca_telemetry_phy_link_speed {
	enum doca_telemetry_phy_eth_link_speed link_speed_eth;
	enum doca_telemetry_phy_ib_link_speed link_speed_ib;
};

enum doca_telemetry_phy_fec_mode {
	DOCA_TELEMETRY_PHY_NO_FEC = 0x0,
	DOCA_TELEMETRY_PHY_FIRECODE_FEC = 0x1,
	DOCA_TELEMETRY_PHY_STANDARD_RS_FEC_528_514 = 0x2,
	DOCA_TELEMETRY_PHY_STANDARD_LL_RS_FEC_271_257 = 0x3,
	DOCA_TELEMETRY_PHY_INTERLEAVED_QUAD_RS_FEC_544_514 = 0x4,
	DOCA_TELEMETRY_PHY_INTERLEAVED_QUAD_RS_FEC_PLR_546_516 = 0x5,
	DOCA_TELEMETRY_PHY_INTERLEAVED_STANDARD_RS_544_514 = 0x6,
	DOCA_TELEMETRY_PHY_STANDARD_RS_FEC_544_514 = 0x7,
	DOCA_TELEMETRY_PHY_INTERLEAVED_OCTET_RS_FEC_PLR_546_516 = 0x8,
	DOCA_TELEMETRY_PHY_ETH_CONSORTIUM_LL_50G_RS_FEC_272_257_PLUS_1 = 0x9,
	DOCA_TELEMETRY_PHY_INTERLEAVED_ETH_CONSORTIUM_LL_50G_RS_FEC_272_257_PLUS_1 = 0xa,
	DOCA_TELEMETRY_PHY_INTERLEAVED_STANDARD_RS_FEC_PLR = 0xb
};

enum doca_telemetry_phy_loopback_mode {
	DOCA_TELEMETRY_PHY_NO_LOOPBACK_ACTIVE = 0x0,
	DOCA_TELEMETRY_PHY_REMOTE_LOOPBACK = 0x1,
	DOCA_TELEMETRY_PHY_LOCAL_LOOPBACK = 0x2,
	DOCA_TELEMETRY_PHY_EXTERNAL_LOCAL_LOOPBACK = 0x4
};

enum doca_telemetry_phy_auto_negotiation {
	DOCA_TELEMETRY_PHY_AUTO_NEGOTIATION_ON = 0x0,
	DOCA_TELEMETRY_PHY_AUTO_NEGOTIATION_FORCE = 0x1
};

struct doca_telemetry_phy_operation_info {
	enum doca_telemetry_phy_protocol active_protocol;
	enum doca_telemetry_phy_mng_state state;
	union doca_telemetry_phy_state phy_state;
	union doca_telemetry_phy_link_speed link_speed_active;
	uint8_t link_width;
	enum doca_telemetry_phy_fec_mode fec_mode_active;
	enum doca_telemetry_phy_loopback_mode loopback_mode;
	enum doca_telemetry_phy_auto_negotiation auto_negotiation;
};

/* Module info */

/* CMIS data path configuration response */
enum doca_telemetry_phy_error_code {
	DOCA_TELEMETRY_PHY_ERROR_CODE_CFG_UNDEFINED = 0x0,
	DOCA_TELEMETRY_PHY_ERROR_CODE_CFG_SUCCESS = 0x1,
	DOCA_TELEMETRY_PHY_ERROR_CODE_CFG_REJECTED = 0x2,
	DOCA_TELEMETRY_PHY_ERROR_CODE_CFG_REJECTED_INVALID_APP_SEL = 0x3,
	DOCA_TELEMETRY_PHY_ERROR_CODE_CFG_REJECTED_INVALID_DATA_PATH = 0x4,
	DOCA_TELEMETRY_PHY_ERROR_CODE_CFG_REJECTED_INVALID_SI = 0x5,
	DOCA_TELEMETRY_PHY_ERROR_CODE_CFG_REJECTED_LANES_IN_USE = 0x6,
	DOCA_TELEMETRY_PHY_ERROR_CODE_CFG_REJECTED_PARTIAL_DATA_PATH = 0x7,
	DOCA_TELEMETRY_PHY_ERROR_CODE_CFG_IN_PROGRESS = 0xc,
	DOCA_TELEMETRY_PHY_ERROR_CODE_NA = 0xff
};

enum doca_telemetry_phy_cable_vendor {
	DOCA_TELEMETRY_PHY_CABLE_VENDOR_OTHER = 0x0,
	DOCA_TELEMETRY_PHY_CABLE_VENDOR_MELLANOX = 0x1,
	DOCA_TELEMETRY_PHY_CABLE_VENDOR_KNOWN_OUI = 0x2,
	DOCA_TELEMETRY_PHY_CABLE_VENDOR_NVIDIA = 0x3,
	DOCA_TELEMETRY_PHY_CABLE_VENDOR_NA = 0xff
};

struct doca_telemetry_phy_date {
	uint8_t year; /* 0 is 2000 */
	uint8_t month;
	uint8_t day;
};

struct doca_telemetry_phy_manufacturing_date {
	struct doca_telemetry_phy_date date;
	char lot[2];
};

struct doca_telemetry_phy_cable_vendor_info {
	enum doca_telemetry_phy_cable_vendor cable_vendor;
	char vendor_name[DOCA_TELEMETRY_PHY_MODULE_INFO_ASCII_STRING_SIZE];
	char vendor_part_number[DOCA_TELEMETRY_PHY_MODULE_INFO_ASCII_STRING_SIZE];
	char vendor_serial_number[DOCA_TELEMETRY_PHY_MODULE_INFO_ASCII_STRING_SIZE];
	char vendor_rev_number[DOCA_TELEMETRY_PHY_MODULE_INFO_ASCII_STRING_SIZE];
	struct doca_telemetry_phy_manufacturing_date manufacturing_date;
};

enum doca_telemetry_phy_ib_cable_width {
	DOCA_TELEMETRY_PHY_IB_CABLE_WIDTH_1X = 0x1,
	DOCA_TELEMETRY_PHY_IB_CABLE_WIDTH_2X = 0x2,
	DOCA_TELEMETRY_PHY_IB_CABLE_WIDTH_4X = 0x4,
	DOCA_TELEMETRY_PHY_IB_CABLE_WIDTH_8X = 0x8,
};

struct doca_telemetry_phy_firmware_version {
	uint8_t chip_id;
	uint8_t major;
	uint16_t minor;
};

enum doca_telemetry_phy_QSFP_CMIS_cable_technology {
	DOCA_TELEMETRY_PHY_QSFP_CMIS_VCSEL_850NM = 0x0,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_VCSEL_1310NM = 0x1,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_VCSEL_1550NM = 0x2,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_FP_LASER_1310NM = 0x3,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_DFB_LASER_1310NM = 0x4,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_DFB_LASER_1550NM = 0x5,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_EML_1310NM = 0x6,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_EML_1550NM = 0x7,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_OTHERS = 0x8,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_DFB_LASER_1490NM = 0x9,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_PASSIVE_COPPER_CABLE_UNEQD = 0xa,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_PASSIVE_COPPER_CABLE_EQD = 0xb,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_COPPER_CABLE_NEAR_END_AND_FAR_END_LIMITING_ACT_EQ = 0xc,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_COPPER_CABLE_FAR_END_LIMITING_ACT_EQ = 0xd,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_COPPER_CABLE_NEAR_END_LIMITING_ACT_EQ = 0xe,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_COPPER_CABLE_LINEAR_ACT_EQS = 0xf,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_C_BAND_TUNABLE_LASER = 0x10,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_L_BAND_TUNABLE_LASER = 0x11,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_COPPER_CABLE_NEAR_END_AND_FAR_END_LINEAR_ACT_EQS = 0x12,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_COPPER_CABLE_FAR_END_LINEAR_ACT_EQS = 0x13,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_COPPER_CABLE_NEAR_END_LINEAR_ACT_EQS = 0x14,
	DOCA_TELEMETRY_PHY_QSFP_CMIS_NA = 0xffff
};

enum doca_telemetry_phy_SFP_cable_technology {
	DOCA_TELEMETRY_PHY_SFP_PASSIVE = 0x4,
	DOCA_TELEMETRY_PHY_SFP_ACTIVE = 0x8,
	DOCA_TELEMETRY_PHY_SFP_NA = 0xffff
};

union doca_telemetry_phy_cable_technology {
	enum doca_telemetry_phy_QSFP_CMIS_cable_technology QSFP_CMIS_cable_technology;
	enum doca_telemetry_phy_SFP_cable_technology SFP_cable_technology;
};

enum doca_telemetry_phy_cable_identifier {
	DOCA_TELEMETRY_PHY_CABLE_IDENTIFIER_QSFP28 = 0x0,
	DOCA_TELEMETRY_PHY_CABLE_IDENTIFIER_QSFP_PLUS = 0x1,
	DOCA_TELEMETRY_PHY_CABLE_IDENTIFIER_SFP28_OR_SFP_PLUS = 0x2,
	DOCA_TELEMETRY_PHY_CABLE_IDENTIFIER_QSA_QSFP_SFP = 0x3,
	DOCA_TELEMETRY_PHY_CABLE_IDENTIFIER_BLACKPLANE = 0x4,
	DOCA_TELEMETRY_PHY_CABLE_IDENTIFIER_SFP_DD = 0x5,
	DOCA_TELEMETRY_PHY_CABLE_IDENTIFIER_QSFP_DD = 0x6,
	DOCA_TELEMETRY_PHY_CABLE_IDENTIFIER_QSFP_CMIS = 0x7,
	DOCA_TELEMETRY_PHY_CABLE_IDENTIFIER_OSFP = 0x8,
	DOCA_TELEMETRY_PHY_CABLE_IDENTIFIER_C2C = 0x9,
	DOCA_TELEMETRY_PHY_CABLE_IDENTIFIER_DSFP = 0xa,
	DOCA_TELEMETRY_PHY_CABLE_IDENTIFIER_QSFP_SPLIT_CABLE = 0xb,
	DOCA_TELEMETRY_PHY_CABLE_IDENTIFIER_NA = 0xffff
};

enum doca_telemetry_phy_cable_type {
	DOCA_TELEMETRY_PHY_CABLE_TYPE_UNIDENTIFIED = 0x0,
	DOCA_TELEMETRY_PHY_CABLE_TYPE_ACTIVE_CABLE = 0x1,
	DOCA_TELEMETRY_PHY_CABLE_TYPE_OPTICAL_MODULE = 0x2,
	DOCA_TELEMETRY_PHY_CABLE_TYPE_PASSIVE_COPPER_CABLE_OR_LINEAR_COPPER = 0x3,
	DOCA_TELEMETRY_PHY_CABLE_TYPE_CABLE_UNPLUGGED = 0x4,
	DOCA_TELEMETRY_PHY_CABLE_TYPE_TWISTED_PAIR = 0x5,
};

/* compliance codes: bits of qsfp_cc / sfp_cc */
enum doca_telemetry_phy_QSFP_cc {
	DOCA_TELEMETRY_PHY_QSFP_CC_UNSPECIFIED = 0,
	DOCA_TELEMETRY_PHY_QSFP_CC_40G_ACTIVE_CABLE_XLPPI = 0x1,
	DOCA_TELEMETRY_PHY_QSFP_CC_40GBASE_LR4 = 0x2,
	DOCA_TELEMETRY_PHY_QSFP_CC_40GBASE_SR4 = 0x4,
	DOCA_TELEMETRY_PHY_QSFP_CC_40GBASE_CR4 = 0x8,
	DOCA_TELEMETRY_PHY_QSFP_CC_10GBASE_SR = 0x10,
	DOCA_TELEMETRY_PHY_QSFP_CC_10GBASE_LR = 0x20,
	DOCA_TELEMETRY_PHY_QSFP_CC_10GBASE_LRM = 0x40,
	DOCA_TELEMETRY_PHY_QSFP_CC_EXT = 0x80,
};

enum doca_telemetry_phy_SFP_cc {
	DOCA_TELEMETRY_PHY_SFP_CC_UNSPECIFIED = 0,
	DOCA_TELEMETRY_PHY_SFP_CC_10G_BASE_SR = 0x10,
	DOCA_TELEMETRY_PHY_SFP_CC_10G_BASE_LR = 0x20,
	DOCA_TELEMETRY_PHY_SFP_CC_10G_BASE_LRM = 0x40,
	DOCA_TELEMETRY_PHY_SFP_CC_10G_BASE_ER = 0x80,
};

enum doca_telemetry_phy_QSFP_SFP_common_cc {
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_UNSPECIFIED = 0,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100G_AOC_OR_25GAUI_C2M_AOC_WITH_FEC = 0x1,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100GBASE_SR4_OR_25GBASE_SR = 0x2,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100GBASE_LR4_OR_25GBASE_LR = 0x3,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100GBASE_ER4_OR_25GBASE_ER = 0x4,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100GBASE_SR10 = 0x5,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100G_CWDM4 = 0x6,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100G_PSM4_PARALLEL_SMF = 0x7,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100G_ACC_OR_25GAUI_C2M_ACC_WITH_FEC = 0x8,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100GBASE_CR4_OR_25GBASE_CR_CA_25G_L_OR_50GBASE_CR2_WITH_RS_CLAUSE91_FEC = 0xb,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_25GBASE_CR_CA_S_OR_50GBASE_CR2_WITH_BASE_R_CLAUSE_74_FIRE_CODE_FEC = 0xc,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_25GBASE_CR_CA_N_OR_50GBASE_CR2_WITH_NO_FEC = 0xd,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_40GBASE_ER4 = 0x10,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_4_X_10GBASE_SR = 0x11,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_40G_PSM4_PARALLEL_SMF = 0x12,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_G959_1_P1I1_2D1_10709_MBD_2KM_1310NM_SM = 0x13,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_G959_1_P1S1_2D2_10709_MBD_40KM_1550NM_SM = 0x14,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_G959_1_P1L1_2D2_10709_MBD_80KM_1550NM_SM = 0x15,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_10GBASE_T_WITH_SFI_ELECTRICAL_INTERFACE = 0x16,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100G_CLR4 = 0x17,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100G_AOC_OR_25GAUI_C2M_AOC_WITH_NO_FEC = 0x18,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100G_ACC_OR_25GAUI_C2M_ACC_WITH_NO_FEC = 0x19,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100G_DWDM2 = 0x1a,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100G_1550NM_WDM = 0x1b,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_10GBASE_T_2 = 0x1c,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_5GBASE_T = 0x1d,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_2_5GBASE_T = 0x1e,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_40G_SWDM4 = 0x1f,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100G_SWDM4 = 0x20,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100G_PAM4_BIDI = 0x21,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_4WDM10_MSA = 0x22,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_4WDM20_MSA = 0x23,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_4WDM40_MSA = 0x24,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100GBASE_DR_WITH_CAUI_4_WITHOUT_FEC = 0x25,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100G_FR_WITH_CAUI_4_WITHOUT_FEC = 0x26,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100G_LR_WITH_CAUI_4_WITHOUT_FEC = 0x27,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100GBASE_SR1_OR_200GBASE_SR2_OR_400GBASE_SR4 = 0x29,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100GBASE_FR1_OR_400GBASE_DR4_2 = 0x2a,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100GBASE_LR1 = 0x2b,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_ACC_10_6_WITH_50GAUI_OR_100GAUI_2_OR_200GAUI_4_C2M = 0x30,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_AOC_10_6_WITH_50GAUI_OR_100GAUI_2_OR_200GAUI_4_C2M = 0x31,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_ACC_10_4_WITH_50GAUI_OR_100GAUI_2_OR_200GAUI_4_C2M = 0x32,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_AOC_10_4_WITH_50GAUI_OR_100GAUI_2_OR_200GAUI_4_C2M = 0x33,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100GBASE_VR1_OR_200GBASE_VR2_OR_400GBASE_VR4 = 0x36,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_100GBASE_CR1_OR_200GBASE_CR2_OR_400GBASE_CR4 = 0x3f,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_50GBASE_CR_OR_100GBASE_CR2_OR_200GBASE_CR4 = 0x40,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_50GBASE_SR_OR_100GBASE_SR2_OR_200GBASE_SR4 = 0x41,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_50GBASE_FR_OR_200GBASE_DR4 = 0x42,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_200GBASE_FR4 = 0x43,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_200GBASE_1550NM_PSM4 = 0x44,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_50GBASE_LR = 0x45,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_200GBASE_LR4 = 0x46,
	DOCA_TELEMETRY_PHY_QSFP_SFP_CC_400GBASE_DR4_OR_400GAUI_4_C2M = 0x47,
};

enum doca_telemetry_phy_CMIS_common_cc {
	DOCA_TELEMETRY_PHY_CMIS_CC_UNSPECIFIED = 0x0,
	DOCA_TELEMETRY_PHY_CMIS_CC_1000_BASE_CX = 0x1,
	DOCA_TELEMETRY_PHY_CMIS_CC_XAUI = 0x2,
	DOCA_TELEMETRY_PHY_CMIS_CC_XFI = 0x3,
	DOCA_TELEMETRY_PHY_CMIS_CC_SFI = 0x4,
	DOCA_TELEMETRY_PHY_CMIS_CC_25G_AUI = 0x5,
	DOCA_TELEMETRY_PHY_CMIS_CC_XL_AUI = 0x6,
	DOCA_TELEMETRY_PHY_CMIS_CC_XL_PPI = 0x7,
	DOCA_TELEMETRY_PHY_CMIS_CC_L_AUI2 = 0x8,
	DOCA_TELEMETRY_PHY_CMIS_CC_50G_AUI2 = 0x9,
	DOCA_TELEMETRY_PHY_CMIS_CC_50G_AUI1 = 0xa,
	DOCA_TELEMETRY_PHY_CMIS_CC_C_AUI4 = 0xb,
	DOCA_TELEMETRY_PHY_CMIS_CC_100G_AUI4 = 0xc,
	DOCA_TELEMETRY_PHY_CMIS_CC_100G_AUI2 = 0xd,
	DOCA_TELEMETRY_PHY_CMIS_CC_200G_AUI8 = 0xe,
	DOCA_TELEMETRY_PHY_CMIS_CC_200G_AUI4 = 0xf,
	DOCA_TELEMETRY_PHY_CMIS_CC_400G_AUI16 = 0x10,
	DOCA_TELEMETRY_PHY_CMIS_CC_400G_AUI8 = 0x11,
	DOCA_TELEMETRY_PHY_CMIS_CC_10G_BASE_CX4 = 0x13,
	DOCA_TELEMETRY_PHY_CMIS_CC_25G_CR_L = 0x14,
	DOCA_TELEMETRY_PHY_CMIS_CC_25G_CR_S = 0x15,
	DOCA_TELEMETRY_PHY_CMIS_CC_25G_CR_N = 0x16,
	DOCA_TELEMETRY_PHY_CMIS_CC_40G_BASE_CR4 = 0x17,
	DOCA_TELEMETRY_PHY_CMIS_CC_50G_BASE_CR = 0x18,
	DOCA_TELEMETRY_PHY_CMIS_CC_100G_BASE_CR10 = 0x19,
	DOCA_TELEMETRY_PHY_CMIS_CC_100G_BASE_CR4 = 0x1a,
	DOCA_TELEMETRY_PHY_CMIS_CC_100G_BASE_CR2 = 0x1b,
	DOCA_TELEMETRY_PHY_CMIS_CC_200G_BASE_CR4 = 0x1c,
	DOCA_TELEMETRY_PHY_CMIS_CC_400G_CR8 = 0x1d,
	DOCA_TELEMETRY_PHY_CMIS_CC_1000_BASE_T = 0x1e,
	DOCA_TELEMETRY_PHY_CMIS_CC_2_5G_BASE_T = 0x1f,
	DOCA_TELEMETRY_PHY_CMIS_CC_5G_BASE_T = 0x20,
	DOCA_TELEMETRY_PHY_CMIS_CC_10G_BASE_T = 0x21,
	DOCA_TELEMETRY_PHY_CMIS_CC_25_BASE_T = 0x22,
	DOCA_TELEMETRY_PHY_CMIS_CC_40_BASE_T = 0x23,
	DOCA_TELEMETRY_PHY_CMIS_CC_50_BASE_T = 0x24,
	DOCA_TELEMETRY_PHY_CMIS_CC_SDR = 0x2c,
	DOCA_TELEMETRY_PHY_CMIS_CC_FDR = 0x2f,
	DOCA_TELEMETRY_PHY_CMIS_CC_EDR = 0x30,
	DOCA_TELEMETRY_PHY_CMIS_CC_HDR = 0x31,
	DOCA_TELEMETRY_PHY_CMIS_CC_NDR = 0x32,
	DOCA_TELEMETRY_PHY_CMIS_CC_XDR = 0xa0,
	DOCA_TELEMETRY_PHY_CMIS_CC_100G_BASE_R1 = 0x46,
	DOCA_TELEMETRY_PHY_CMIS_CC_200G_BASE_R2 = 0x47,
	DOCA_TELEMETRY_PHY_CMIS_CC_400G_BASE_R4 = 0x48,
	DOCA_TELEMETRY_PHY_CMIS_CC_800G_ETC_CR8_OR_800GBASE_CR8 = 0x49,
};

enum doca_telemetry_phy_CMIS_optical_mm {
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_UNSPECIFIED = 0,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_10G_BASE_SW = 0x1,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_10G_BASE_SR = 0x2,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_25G_BASE_SR = 0x3,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_40G_BASE_SR4 = 0x4,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_40G_SWDM4 = 0x5,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_40G_BIDI = 0x6,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_50G_BASE_SR = 0x7,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_100G_BASE_SR10 = 0x8,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_100G_BASE_SR4 = 0x9,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_100G_SWDM4 = 0xa,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_100G_BIDI = 0xb,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_100G_SR2 = 0xc,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_100G_SR = 0xd,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_200G_BASE_SR4 = 0xe,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_400G_BASE_SR16 = 0xf,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_400G_BASE_SR8 = 0x10,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_400G_SR4 = 0x11,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_800G_SR8 = 0x12,
	DOCA_TELEMETRY_PHY_CMIS_MM_CC_400G_BIDI = 0x1a,
};

enum doca_telemetry_phy_CMIS_optical_sm {
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_UNSPECIFIED = 0,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_10G_BASE_LW = 0x1,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_10G_BASE_EW = 0x2,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_10G_ZW = 0x3,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_10G_BASE_LR = 0x4,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_10G_BASE_ER = 0x5,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_10G_BASE_ZR = 0x6,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_25G_BASE_LR = 0x7,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_25G_BASE_ER = 0x8,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_40G_BASE_LR4 = 0x9,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_40G_BASE_FR = 0xa,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_50G_BASE_FR = 0xb,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_50G_BASE_LR = 0xc,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_100G_BASE_LR4 = 0xd,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_100G_BASE_ER4 = 0xe,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_100G_PSM4 = 0xf,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_100G_CWDM4_OCP = 0x34,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_100G_CWDM4 = 0x10,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_100G_4WDM_10 = 0x11,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_100G_4WDM_20 = 0x12,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_100G_4WDM_40 = 0x13,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_100G_BASE_DR = 0x14,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_100G_FR = 0x15,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_100G_LR = 0x16,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_200G_BASE_DR4 = 0x17,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_200G_BASE_FR4 = 0x18,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_200G_BASE_LR4 = 0x19,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_400G_BASE_FR8 = 0x1a,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_400G_BASE_LR8 = 0x1b,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_400G_BASE_DR4 = 0x1c,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_400G_FR4 = 0x1d,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_400G_LR4 = 0x1e,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_10G_SR = 0x38,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_10G_LR = 0x39,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_25G_SR = 0x3a,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_25G_LR = 0x3b,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_10G_LR_BIDI = 0x3c,
	DOCA_TELEMETRY_PHY_CMIS_SM_CC_25G_LR_BIDI = 0x3d,
};

enum doca_telemetry_phy_CMIS_copper {
	DOCA_TELEMETRY_PHY_CMIS_COPPER_CC_UNSPECIFIED = 0,
	DOCA_TELEMETRY_PHY_CMIS_COPPER_CC_ASSEMBLY_BER_LT_1E_12 = 0x1,
	DOCA_TELEMETRY_PHY_CMIS_COPPER_CC_ASSEMBLY_BER_LT_5E_5 = 0x2,
	DOCA_TELEMETRY_PHY_CMIS_COPPER_CC_ASSEMBLY_BER_LT_2_6E_4 = 0x3,
	DOCA_TELEMETRY_PHY_CMIS_COPPER_CC_ASSEMBLY_BER_LT_1E_6 = 0x4,
};

union doca_telemetry_phy_CMIS_specific {
	enum doca_telemetry_phy_CMIS_copper copper_cc;
	enum doca_telemetry_phy_CMIS_optical_sm sm_cc;
	enum doca_telemetry_phy_CMIS_optical_mm mm_cc;
};

struct doca_telemetry_phy_CMIS {
	enum doca_telemetry_phy_CMIS_common_cc common_cc;
	union doca_telemetry_phy_CMIS_specific specific_cc;
};

union doca_telemetry_phy_QSFP_SFP_specific {
	uint8_t qsfp_cc; /* enum doca_telemetry_phy_QSFP_cc bits */
	uint8_t sfp_cc;	 /* enum doca_telemetry_phy_SFP_cc bits */
};

struct doca_telemetry_phy_QSFP_SFP {
	enum doca_telemetry_phy_QSFP_SFP_common_cc common_cc;
	union doca_telemetry_phy_QSFP_SFP_specific specific_cc;
};

union doca_telemetry_phy_compliance_code {
	struct doca_telemetry_phy_CMIS cmis_cc;
	struct doca_telemetry_phy_QSFP_SFP qsfp_sfp_cc; /* Ethernet only */
};

enum doca_telemetry_phy_QSFP_far_end {
	DOCA_TELEMETRY_PHY_QSFP_FAR_END_UNSPECIFIED = 0,
	DOCA_TELEMETRY_PHY_QSFP_SINGLE_FAR_END_4_CHS_IMP_OR_SEPAR_MOD_4_CH_CONN = 0x1,
	DOCA_TELEMETRY_PHY_QSFP_SINGLE_FAR_END_2_CHS_IMP_OR_SEPAR_MOD_2_CH_CONN = 0x2,
	DOCA_TELEMETRY_PHY_QSFP_SINGLE_FAR_END_1_CHS_IMP_OR_SEPAR_MOD_1_CH_CONN = 0x3,
	DOCA_TELEMETRY_PHY_QSFP_4_FAR_ENDS_1_CHS_IMP_IN_EACH = 0x4,
	DOCA_TELEMETRY_PHY_QSFP_2_FAR_ENDS_2_CHS_IMP_IN_EACH = 0x5,
	DOCA_TELEMETRY_PHY_QSFP_2_FAR_ENDS_1_CHS_IMP_IN_EACH = 0x6,
	DOCA_TELEMETRY_PHY_QSFP_FAR_END_NA = 0xff,
};

enum doca_telemetry_phy_QSFP_near_end {
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_CH0_IMP_CH1_IMP_CH2_IMP_CH3_IMP = 0,
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_CH0_NOTIMP_CH1_IMP_CH2_IMP_CH3_IMP = 0x1,
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_CH0_IMP_CH1_NOT_IMP_CH2_IMP_CH3_IMP = 0x2,
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_CH0_NOTIMP_CH1_NOTIMP_CH2_IMP_CH3_IMP = 0x3,
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_CH0_IMP_CH1_IMP_CH2_NOTIMP_CH3_IMP = 0x4,
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_CH0_NOTIMP_CH1_IMP_CH2_NOTIMP_CH3_IMP = 0x5,
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_CH0_IMP_CH1_NOTIMP_CH2_NOTIMP_CH3_IMP = 0x6,
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_CH0_NOTIMP_CH1_NOTIMP_CH2_NOTIMP_CH3_IMP = 0x7,
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_CH0_IMP_CH1_IMP_CH2_IMP_CH3_NOTIMP = 0x8,
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_CH0_NOTIMP_CH1_IMP_CH2_IMP_CH3_NOTIMP = 0x9,
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_CH0_IMP_CH1_NOTIMP_CH2_IMP_CH3_NOTIMP = 0xa,
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_CH0_NOTIMP_CH1_NOTIMP_CH2_IMP_CH3_NOTIMP = 0xb,
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_CH0_IMP_CH1_IMP_CH2_NOTIMP_CH3_NOTIMP = 0xc,
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_CH0_NOTIMP_CH1_IMP_CH2_NOTIMP_CH3_NOTIMP = 0xd,
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_CH0_IMP_CH1_NOTIMP_CH2_NOTIMP_CH3_NOTIMP = 0xe,
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_CH0_NOTIMP_CH1_NOTIMP_CH2_NOTIMP_CH3_NOTIMP = 0xf,
	DOCA_TELEMETRY_PHY_QSFP_NEAR_END_NA = 0xff,
};

struct doca_telemetry_phy_QSFP_cable_breakout {
	enum doca_telemetry_phy_QSFP_far_end far_end;
	enum doca_telemetry_phy_QSFP_near_end near_end;
};

/* X stands for the cable identifier (an OSFP cable: OSFP to OSFP is X_TO_X) */
enum doca_telemetry_phy_CMIS_cable_breakout {
	DOCA_TELEMETRY_PHY_CMIS_CABLE_BREAKOUT_X_UNSPECIFIED = 0,
	DOCA_TELEMETRY_PHY_CMIS_CABLE_BREAKOUT_X_TO_X = 0x1,
	DOCA_TELEMETRY_PHY_CMIS_CABLE_BREAKOUT_X_TO_2QSFP_OR_2X_4LANES = 0x2,
	DOCA_TELEMETRY_PHY_CMIS_CABLE_BREAKOUT_X_TO_4DSFP_OR_4QSFP_2LANES = 0x3,
	DOCA_TELEMETRY_PHY_CMIS_CABLE_BREAKOUT_X_TO_8SFP = 0x4,
	DOCA_TELEMETRY_PHY_CMIS_CABLE_BREAKOUT_X_4LANES_TO_QSFP_OR_X_4LANES = 0x5,
	DOCA_TELEMETRY_PHY_CMIS_CABLE_BREAKOUT_X_4LANES_TO_2X_2LANES_OR_2SFPDD = 0x6,
	DOCA_TELEMETRY_PHY_CMIS_CABLE_BREAKOUT_X_4LANES_to_4SFP = 0x7,
	DOCA_TELEMETRY_PHY_CMIS_CABLE_BREAKOUT_X_2LANES_to_X = 0x8,
	DOCA_TELEMETRY_PHY_CMIS_CABLE_BREAKOUT_X_2LANES_to_2SFP = 0x9,
	DOCA_TELEMETRY_PHY_CMIS_CABLE_BREAKOUT_NA = 0xffff,
};

union doca_telemetry_phy_cable_breakout {
	enum doca_telemetry_phy_CMIS_cable_breakout cmis_cable_breakout;
	struct doca_telemetry_phy_QSFP_cable_breakout qsfp_cable_breakout;
};

struct doca_telemetry_phy_cable_general_properties_info {
	uint8_t memory_map_rev;
	uint8_t ib_cable_width; /* enum doca_telemetry_phy_ib_cable_width bits */
	uint8_t linear_direct_drive;
	struct doca_telemetry_phy_firmware_version firmware_version;
	union doca_telemetry_phy_cable_technology cable_technology;
	enum doca_telemetry_phy_cable_identifier cable_identifier;
	enum doca_telemetry_phy_cable_type cable_type;
	float transfer_distance; /* metres */
	union doca_telemetry_phy_compliance_code compliance_code;
	union doca_telemetry_phy_cable_breakout cable_breakout;
	uint32_t smf_length; /* metres */
	enum doca_telemetry_phy_CMIS_common_cc active_set_host_compliance_code;
	union doca_telemetry_phy_CMIS_specific active_set_media_compliance_code;
};

/* Celsius */
struct doca_telemetry_phy_temperature {
	int16_t temperature;
	int16_t temperature_low;
	int16_t temperature_high;
};

/* mV */
struct doca_telemetry_phy_voltage {
	uint16_t voltage;
	uint16_t voltage_low;
	uint16_t voltage_high;
};

/* mA */
struct doca_telemetry_phy_tx_bias_current {
	float tx_bias_current_per_lane[DOCA_TELEMETRY_PHY_MAX_LANES];
	float tx_bias_current_low;
	float tx_bias_current_high;
};

/* dBm */
struct doca_telemetry_phy_rx_power {
	float rx_power_per_lane[DOCA_TELEMETRY_PHY_MAX_LANES];
	float rx_power_low;
	float rx_power_high;
};

/* dBm */
struct doca_telemetry_phy_tx_power {
	float tx_power_per_lane[DOCA_TELEMETRY_PHY_MAX_LANES];
	float tx_power_low;
	float tx_power_high;
};

enum doca_telemetry_phy_rx_power_type {
	DOCA_TELEMETRY_PHY_RX_POWER_TYPE_OMA = 0x0,
	DOCA_TELEMETRY_PHY_RX_POWER_TYPE_AP = 0x1,
	DOCA_TELEMETRY_PHY_RX_POWER_TYPE_NA = 0xf
};

/* power classes, by cable */
enum doca_telemetry_phy_sfp_qsfp {
	DOCA_TELEMETRY_PHY_SFP_QSFP_1_0_W_MAX = 0x0,
	DOCA_TELEMETRY_PHY_SFP_QSFP_1_5_W_MAX = 0x1,
	DOCA_TELEMETRY_PHY_SFP_QSFP_2_0_W_MAX = 0x2,
	DOCA_TELEMETRY_PHY_SFP_QSFP_2_5_W_MAX = 0x3,
	DOCA_TELEMETRY_PHY_SFP_QSFP_3_5_W_MAX = 0x4,
	DOCA_TELEMETRY_PHY_SFP_QSFP_4_0_W_MAX = 0x5,
	DOCA_TELEMETRY_PHY_SFP_QSFP_4_5_W_MAX = 0x6,
	DOCA_TELEMETRY_PHY_SFP_QSFP_5_0_W_MAX = 0x7,
	DOCA_TELEMETRY_PHY_SFP_QSFP_POWER_FROM_MAX_POWER_FIELD = 0x8,
	DOCA_TELEMETRY_PHY_SFP_QSFP_NA = 0xff
};

enum doca_telemetry_phy_sfpdd {
	DOCA_TELEMETRY_PHY_SFPDD_0_5_W_MAX = 0x0,
	DOCA_TELEMETRY_PHY_SFPDD_1_0_W_MAX = 0x1,
	DOCA_TELEMETRY_PHY_SFPDD_1_5_W_MAX = 0x2,
	DOCA_TELEMETRY_PHY_SFPDD_2_0_W_MAX = 0x3,
	DOCA_TELEMETRY_PHY_SFPDD_3_5_W_MAX = 0x4,
	DOCA_TELEMETRY_PHY_SFPDD_5_0_W_MAX = 0x5,
	DOCA_TELEMETRY_PHY_SFPDD_POWER_FROM_MAX_POWER_FIELD = 0x8,
	DOCA_TELEMETRY_PHY_SFPDD_NA = 0xff
};

enum doca_telemetry_phy_qsfpdd_osfp {
	DOCA_TELEMETRY_PHY_QSFPDD_OSFP_1_5_W_MAX = 0x1,
	DOCA_TELEMETRY_PHY_QSFPDD_OSFP_3_5_W_MAX = 0x2,
	DOCA_TELEMETRY_PHY_QSFPDD_OSFP_7_0_W_MAX = 0x3,
	DOCA_TELEMETRY_PHY_QSFPDD_OSFP_8_0_W_MAX = 0x4,
	DOCA_TELEMETRY_PHY_QSFPDD_OSFP_10_W_MAX = 0x5,
	DOCA_TELEMETRY_PHY_QSFPDD_OSFP_12_W_MAX = 0x6,
	DOCA_TELEMETRY_PHY_QSFPDD_OSFP_14_W_MAX = 0x7,
	DOCA_TELEMETRY_PHY_QSFPDD_OSFP_POWER_FROM_MAX_POWER_FIELD = 0x8,
	DOCA_TELEMETRY_PHY_QSFPDD_OSFP_NA = 0xff
};

union doca_telemetry_phy_power_class {
	enum doca_telemetry_phy_sfp_qsfp sfp_qsfp;
	enum doca_telemetry_phy_sfpdd sfpdd;
	enum doca_telemetry_phy_qsfpdd_osfp qsfpdd_osfp;
};

struct doca_telemetry_phy_cable_power_and_temp_info {
	uint8_t ddm_supported; /* digital diagnostic monitoring */
	struct doca_telemetry_phy_temperature module_temperature;
	struct doca_telemetry_phy_voltage module_voltage;
	enum doca_telemetry_phy_rx_power_type rx_power_type;
	float max_power; /* watts */
	struct doca_telemetry_phy_tx_bias_current tx_bias_current;
	struct doca_telemetry_phy_rx_power rx_power;
	struct doca_telemetry_phy_tx_power tx_power;
	union doca_telemetry_phy_power_class power_class;
};

/* dB, 0 if not supported */
struct doca_telemetry_phy_cable_attenuation {
	uint8_t ca_5g;
	uint8_t ca_7g;
	uint8_t ca_12g;
	uint8_t ca_25g;
	uint8_t ca_53g;
};

struct doca_telemetry_phy_active_cable_info {
	uint8_t cable_rx_amp;
	uint8_t cable_rx_emphasis;
	uint8_t cable_rx_post_emphasis;
	uint8_t cable_tx_equalization;
	uint16_t wavelength;	    /* nm */
	float wavelength_tolerance; /* nm */
	struct doca_telemetry_phy_cable_attenuation cable_attenuation;
	float snr_media_per_lane[DOCA_TELEMETRY_PHY_MAX_LANES]; /* dB */
	float snr_host_per_lane[DOCA_TELEMETRY_PHY_MAX_LANES];	/* dB */
};

/* latched flags, bit X is lane X */
struct doca_telemetry_phy_error_counter_info {
	uint8_t tx_fault;
	uint8_t tx_los;
	uint8_t tx_cdr_lol;
	uint8_t rx_los;
	uint8_t rx_cdr_lol;
	uint8_t tx_ad_eq_fault;
};

enum doca_telemetry_phy_cmis_state {
	DOCA_TELEMETRY_PHY_CMIS_ST_RESERVED = 0,
	DOCA_TELEMETRY_PHY_CMIS_ST_LOWPWR = 0x1,
	DOCA_TELEMETRY_PHY_CMIS_ST_PWRUP = 0x2,
	DOCA_TELEMETRY_PHY_CMIS_ST_READY = 0x3,
	DOCA_TELEMETRY_PHY_CMIS_ST_PWRDN = 0x4,
	DOCA_TELEMETRY_PHY_CMIS_ST_FAULT = 0x5,
	DOCA_TELEMETRY_PHY_CMIS_ST_NA = 0xff
};

enum doca_telemetry_phy_cpo_state {
	DOCA_TELEMETRY_PHY_CPO_ST_LASER_INIT = 0,
	DOCA_TELEMETRY_PHY_CPO_ST_LASER_ACTIVE = 1,
	DOCA_TELEMETRY_PHY_CPO_ST_LASER_ACTIVE_WITH_FAULT = 2,
	DOCA_TELEMETRY_PHY_CPO_ST_LASER_DOWN = 3,
	DOCA_TELEMETRY_PHY_CPO_ST_LASER_DOWN_WITH_FAULT = 4,
	DOCA_TELEMETRY_PHY_CPO_ST_NA = 0xff
};

struct doca_telemetry_phy_module_state {
	uint8_t is_cpo;
	union {
		enum doca_telemetry_phy_cmis_state cmis_state;
		enum doca_telemetry_phy_cpo_state cpo_state;
	} state;
};

enum doca_telemetry_phy_data_path_state {
	DOCA_TELEMETRY_PHY_DP_ST_RES = 0,
	DOCA_TELEMETRY_PHY_DP_ST_DEACTIVATED = 0x1,
	DOCA_TELEMETRY_PHY_DP_ST_INIT = 0x2,
	DOCA_TELEMETRY_PHY_DP_ST_DEINIT = 0x3,
	DOCA_TELEMETRY_PHY_DP_ST_ACTIVATED = 0x4,
	DOCA_TELEMETRY_PHY_DP_ST_TX_TURN_ON = 0x5,
	DOCA_TELEMETRY_PHY_DP_ST_TX_TURN_OFF = 0x6,
	DOCA_TELEMETRY_PHY_DP_ST_INITIALIZED = 0x7,
	DOCA_TELEMETRY_PHY_DP_ST_NA = 0xff
};

enum doca_telemetry_phy_cdr_cap {
	DOCA_TELEMETRY_PHY_CDR_UNSUPPORTED = 0x0,
	DOCA_TELEMETRY_PHY_CDR_ON_OFF_CONTROL_ENABLED = 0x1,
	DOCA_TELEMETRY_PHY_CDR_ON_OFF_CONTROL_DISABLED = 0x2,
};

struct doca_telemetry_phy_cdr_info {
	enum doca_telemetry_phy_cdr_cap rx_cdr_cap;
	enum doca_telemetry_phy_cdr_cap tx_cdr_cap;
	uint8_t rx_cdr_state; /* bit X is lane X */
	uint8_t tx_cdr_state;
};

struct doca_telemetry_phy_status_info {
	struct doca_telemetry_phy_cdr_info cdr_info;
	struct doca_telemetry_phy_module_state module_state;
	enum doca_telemetry_phy_data_path_state dp_st_per_lane[DOCA_TELEMETRY_PHY_MAX_LANES];
	uint8_t rx_output_valid;
	uint8_t module_fw_fault;
	uint8_t datapath_fw_fault;
};

/* nanoseconds, 0 if not supported */
struct doca_telemetry_phy_latency_info {
	uint16_t intra_asic_latency;
	uint16_t module_datapath_latency;
	float round_trip_latency;
};

struct doca_telemetry_phy_module_info {
	uint8_t number_of_lanes;
	float nominal_bit_rate; /* Gb/s */
	enum doca_telemetry_phy_protocol active_protocol;
	enum doca_telemetry_phy_error_code error_code;
	struct doca_telemetry_phy_cable_vendor_info cable_vendor_info;
	struct doca_telemetry_phy_cable_general_properties_info cable_general_properties_info;
	struct doca_telemetry_phy_cable_power_and_temp_info cable_power_and_temp_info;
	struct doca_telemetry_phy_active_cable_info active_cable_info;
	struct doca_telemetry_phy_error_counter_info error_counter_info;
	struct doca_telemetry_phy_status_info status_info;
	struct doca_telemetry_phy_latency_info latency_info;
};

/* Counters and BER: BER = ber_coef * 10^-ber_magnitude */

struct doca_telemetry_phy_ber {
	uint8_t ber_coef;
	uint8_t ber_magnitude;
};

struct doca_telemetry_phy_symbol_error {
	uint64_t symbol_errors_counter;
	struct doca_telemetry_phy_ber symbol_ber;
};

struct doca_telemetry_phy_effective_error {
	uint64_t effective_errors_counter;
	struct doca_telemetry_phy_ber effective_ber;
};

struct doca_telemetry_phy_raw_error {
	uint64_t raw_errors_per_lane[DOCA_TELEMETRY_PHY_MAX_LANES];
	struct doca_telemetry_phy_ber raw_ber_per_lane[DOCA_TELEMETRY_PHY_MAX_LANES];
	struct doca_telemetry_phy_ber raw_ber;
};

struct doca_telemetry_phy_counter_and_ber_info {
	uint8_t number_of_lanes;
	uint32_t link_down_counter;
	uint32_t link_down_recovery_counter;
	uint64_t time_since_last_clear; /* ms */
	enum doca_telemetry_phy_protocol active_protocol;
	struct doca_telemetry_phy_symbol_error symbol_errors; /* InfiniBand only */
	struct doca_telemetry_phy_effective_error effective_errors;
	struct doca_telemetry_phy_raw_error raw_errors;
};

DOCA_EXPERIMENTAL doca_error_t doca_telemetry_phy_cap_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_phy_cap_operation_info_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_phy_cap_module_info_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_phy_cap_counter_and_ber_info_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_phy_create(struct doca_dev *dev, struct doca_telemetry_phy **phy);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_phy_destroy(struct doca_telemetry_phy *phy);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_phy_start(struct doca_telemetry_phy *phy);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_phy_stop(struct doca_telemetry_phy *phy);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_phy_get_operation_info(struct doca_telemetry_phy *phy, struct doca_telemetry_phy_operation_info *operation_info_struct);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_phy_get_module_info(struct doca_telemetry_phy *phy, struct doca_telemetry_phy_module_info *module_info_struct);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_phy_get_counter_and_ber_info(struct doca_telemetry_phy *phy, struct doca_telemetry_phy_counter_and_ber_info *counter_and_ber_info_struct);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_TELEMETRY_PHY_H */
